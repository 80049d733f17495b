//! Handles and the models they belong to: a clone owns what its model had
//! when it was cloned, and neither owns what the other makes later; another
//! model's variable or constraint is an error at every public entry (a
//! `ModelError` where the entry returns a result, the documented panic
//! where it does not); a propagator's state is bounded.

use std::panic::{AssertUnwindSafe, catch_unwind};

use bitfd::propagator::{Ctx, Event, Propagation, Propagator, Status, Subscriptions};
use bitfd::{
    ConstraintId, Engine, MAX_MODEL_STATE_WORDS, MAX_STATE_WORDS, Model, ModelError, SearchOptions,
    Solver, Strength, VarId,
};

/// The panic message of `f`, if it panics.
fn panic_message(f: impl FnOnce()) -> Option<String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    result.err().map(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default()
    })
}

fn three_vars(m: &mut Model) -> [VarId; 3] {
    ["a", "b", "c"].map(|name| m.int_var(name, 0, 2).expect("valid"))
}

#[test]
fn a_clone_shares_the_old_variables_and_neither_takes_the_others_new_ones() {
    let mut m = Model::new();
    let [a, b, _] = three_vars(&mut m);
    let mut c = m.clone();
    // The old variables serve both.
    m.less(a, b).expect("the original's own");
    c.less(b, a).expect("the clone's, made before it");
    // A variable each makes afterwards has the same index on both sides...
    let new_in_m = m.int_var("d", 0, 2).expect("valid");
    let new_in_c = c.int_var("d", 0, 2).expect("valid");
    assert_eq!(new_in_m.index(), new_in_c.index());
    assert_ne!(new_in_m, new_in_c);
    // ...and is foreign to the other.
    let foreign = Err(ModelError::ForeignVariable { index: 3 });
    assert_eq!(c.equal(new_in_m, a), foreign);
    assert_eq!(m.equal(new_in_c, a), foreign);
    assert_eq!(c.all_different(&[a, new_in_m], Strength::Domain), foreign);
    assert_eq!(m.equal(new_in_m, a).map(|_| ()), Ok(()));
    assert_eq!(c.equal(new_in_c, a).map(|_| ()), Ok(()));
    // Reading by handle: the other side's new variable panics.
    let message = panic_message(|| {
        c.name(new_in_m);
    });
    assert_eq!(
        message.as_deref(),
        Some("variable #3 belongs to another model")
    );
    assert!(panic_message(|| assert_eq!(m.domain(new_in_c).size(), 3)).is_some());
}

#[test]
fn handles_compare_equal_whichever_model_or_engine_made_them() {
    let mut m = Model::new();
    let vars = three_vars(&mut m);
    let first = m.less(vars[0], vars[1]).expect("valid");
    let mut c = m.clone();
    let d = c.int_var("d", 0, 2).expect("valid");
    let second = c.not_equal(vars[2], d).expect("valid");
    // The clone lists the original's variables and constraints by the
    // handles the original gave them, and its own by its own.
    assert_eq!(c.vars().collect::<Vec<_>>(), [&vars[..], &[d]].concat());
    assert_eq!(c.var("a"), Ok(vars[0]));
    assert_eq!(c.constraint_ids().collect::<Vec<_>>(), [first, second]);
    let engine = Engine::new(&c);
    assert_eq!(
        (0..4).map(|i| engine.var_at(i)).collect::<Vec<_>>(),
        c.vars().collect::<Vec<_>>()
    );
    // A clone of the clone keeps all of that.
    let mut cc = c.clone();
    assert_eq!(cc.vars().collect::<Vec<_>>(), c.vars().collect::<Vec<_>>());
    let e = cc.int_var("e", 0, 2).expect("valid");
    assert_eq!(c.equal(e, d), Err(ModelError::ForeignVariable { index: 4 }));
    assert_eq!(cc.equal(e, d).map(|_| ()), Ok(()));
    assert_eq!(cc.equal(e, vars[0]).map(|_| ()), Ok(()));
    // Solutions of the clone read the original's variables and its own.
    let mut solver = Solver::new(&cc);
    let outcome = solver.first(&SearchOptions::default());
    let solution = &outcome.solutions[0];
    assert!(solution[vars[0]] < solution[vars[1]]);
    assert_ne!(solution[vars[2]], solution[d]);
    assert_eq!(solution[e], solution[d]);
}

#[test]
fn another_models_constraint_is_refused_everywhere() {
    let mut m = Model::new();
    let [a, b, _] = three_vars(&mut m);
    let mine = m.less(a, b).expect("valid");
    let mut other = Model::new();
    let [x, y, _] = three_vars(&mut other);
    let theirs = other.less(x, y).expect("valid");
    // Same index, another model.
    assert_eq!(mine.index(), theirs.index());
    let mut engine = Engine::new(&m);
    let expected = "constraint #0 was not posted to this engine's model";
    assert_eq!(
        panic_message(|| {
            engine.set_enabled(theirs, false);
        })
        .as_deref(),
        Some(expected)
    );
    assert!(engine.is_enabled(mine), "the refused call changed nothing");
    assert!(
        panic_message(|| {
            engine.is_enabled(theirs);
        })
        .is_some()
    );
    let expected = "constraint #0 was not posted to this model";
    for f in [
        Box::new(|| {
            m.label(theirs);
        }) as Box<dyn Fn()>,
        Box::new(|| {
            m.describe(theirs);
        }),
        Box::new(|| {
            m.constraint(theirs);
        }),
    ] {
        assert_eq!(panic_message(f).as_deref(), Some(expected));
    }
    assert!(panic_message(|| m.clone().set_label(theirs, "no")).is_some());
    // A constraint a clone posts is foreign to the original, and back.
    let mut c = m.clone();
    let later = c.equal(a, b).expect("valid");
    assert!(
        panic_message(|| {
            m.describe(later);
        })
        .is_some()
    );
    assert_eq!(c.describe(mine), "less(a, b)");
    let mine_again = m.equal(a, b).expect("valid");
    assert_eq!(mine_again.index(), later.index());
    assert_ne!(mine_again, later);
}

#[test]
fn an_engine_refuses_another_models_variable() {
    let mut m = Model::new();
    three_vars(&mut m);
    let mut other = Model::new();
    let [x, _, _] = three_vars(&mut other);
    let mut engine = Engine::new(&m);
    let expected = Some("variable #0 belongs to another model".to_owned());
    let before: Vec<_> = engine.domains().collect();
    assert_eq!(
        panic_message(|| {
            engine.restrict(x, bitfd::Domain::singleton(1));
        }),
        expected
    );
    assert_eq!(
        engine.domains().collect::<Vec<_>>(),
        before,
        "nothing narrowed"
    );
    assert_eq!(
        panic_message(|| {
            engine.dom(x);
        }),
        expected
    );
    // Past the model's variables too: the message, not an index error.
    let mut big = Model::new();
    let far = (0..10)
        .map(|i| big.int_var(&format!("v{i}"), 0, 2).expect("valid"))
        .last()
        .expect("ten");
    assert_eq!(
        panic_message(|| {
            engine.dom(far);
        })
        .as_deref(),
        Some("variable #9 belongs to another model")
    );
}

/// A propagator that reads a variable it was not given a right to:
/// another model's, alone ([`Ctx::dom`]) or after its own in one call
/// ([`Ctx::doms_into`]).
#[derive(Debug)]
struct Peek {
    own: VarId,
    foreign: VarId,
    together: bool,
}

impl Propagator for Peek {
    fn name(&self) -> &'static str {
        "peek"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on(self.own, Event::Changed);
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        if self.together {
            ctx.doms_into(&[self.own, self.foreign], &mut [0; 2]);
        } else {
            ctx.dom(self.foreign);
        }
        Ok(Status::Fixpoint)
    }
}

#[test]
fn a_propagator_reading_another_models_variable_panics_with_the_message() {
    for together in [false, true] {
        let mut m = Model::new();
        let [a, _, _] = three_vars(&mut m);
        let mut other = Model::new();
        let [_, y, _] = three_vars(&mut other);
        m.post_propagator(Peek {
            own: a,
            foreign: y,
            together,
        })
        .expect("subscribes to its own model's variable");
        let mut engine = Engine::new(&m);
        assert_eq!(
            panic_message(|| {
                let _ = engine.propagate();
            })
            .as_deref(),
            Some("variable #1 belongs to another model"),
            "read together with others: {together}"
        );
    }
}

/// A propagator that asks for `words` state words.
#[derive(Debug)]
struct Hoard {
    x: VarId,
    words: usize,
}

impl Propagator for Hoard {
    fn name(&self) -> &'static str {
        "hoard"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on(self.x, Event::Changed);
    }

    fn state_words(&self) -> usize {
        self.words
    }

    fn propagate(&self, _: &mut Ctx<'_>) -> Propagation {
        Ok(Status::Fixpoint)
    }
}

#[test]
fn propagator_state_is_bounded_one_by_one_and_in_all() {
    let mut m = Model::new();
    let [a, _, _] = three_vars(&mut m);
    for words in [usize::MAX, u32::MAX as usize + 1, MAX_STATE_WORDS + 1] {
        assert_eq!(
            m.post_propagator(Hoard { x: a, words }),
            Err(ModelError::StateTooLarge {
                words,
                limit: MAX_STATE_WORDS
            })
        );
    }
    // Up to the limit each, until the model's total is reached.
    let fit = MAX_MODEL_STATE_WORDS / MAX_STATE_WORDS;
    for _ in 0..fit {
        m.post_propagator(Hoard {
            x: a,
            words: MAX_STATE_WORDS,
        })
        .expect("within both limits");
    }
    assert_eq!(
        m.post_propagator(Hoard { x: a, words: 1 }),
        Err(ModelError::StateTooLarge {
            words: MAX_MODEL_STATE_WORDS + 1,
            limit: MAX_MODEL_STATE_WORDS
        })
    );
    let message = ModelError::StateTooLarge { words: 7, limit: 5 }.to_string();
    assert_eq!(message, "7 words of propagator state, the limit is 5");
    // The model that holds them all still solves.
    let outcome = Solver::new(&m).count(&SearchOptions::default());
    assert_eq!(outcome.stats.solutions, 27);
    // A cleared model starts its count again.
    m.clear();
    let [a, _, _] = three_vars(&mut m);
    m.post_propagator(Hoard {
        x: a,
        words: MAX_STATE_WORDS,
    })
    .expect("a new count");
}

#[test]
fn a_solution_refuses_another_models_variable() {
    let mut m = Model::new();
    three_vars(&mut m);
    let mut c = m.clone();
    let d = c.int_var("d", 0, 2).expect("valid");
    let outcome = Solver::new(&m).first(&SearchOptions::default());
    assert_eq!(
        panic_message(|| {
            let _ = outcome.solutions[0][d];
        })
        .as_deref(),
        Some("variable #3 belongs to another model")
    );
    let _: ConstraintId = c.equal(d, d).expect("valid");
}

/// A small deterministic generator for the random operations below.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

#[test]
fn random_declarations_clones_and_posts_accept_exactly_the_handles_a_model_owns() {
    // Models grow, are cloned and cleared at random; every handle ever made
    // is offered to every model. The expected ownership is kept here, apart
    // from the library: a model owns what it declared or posted, and a
    // clone starts owning what its model owned.
    let mut rng = Rng(11);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..200 {
        let mut models: Vec<(Model, Vec<VarId>, Vec<ConstraintId>)> =
            vec![(Model::new(), vec![], vec![])];
        let mut all_vars: Vec<VarId> = Vec::new();
        let mut all_constraints: Vec<ConstraintId> = Vec::new();
        for step in 0..40 {
            let m = rng.below(models.len());
            match rng.below(6) {
                0 if models.len() < 6 => {
                    let (model, vars, constraints) = &models[m];
                    let copy = (model.clone(), vars.clone(), constraints.clone());
                    models.push(copy);
                }
                1 if rng.below(8) == 0 => {
                    let entry = &mut models[m];
                    entry.0.clear();
                    entry.1.clear();
                    entry.2.clear();
                }
                2 | 3 => {
                    let entry = &mut models[m];
                    let x = entry.0.int_var(&format!("v{step}"), 0, 3).expect("fresh");
                    entry.1.push(x);
                    all_vars.push(x);
                }
                _ if !all_vars.is_empty() => {
                    let x = all_vars[rng.below(all_vars.len())];
                    let y = all_vars[rng.below(all_vars.len())];
                    let entry = &mut models[m];
                    let owned = entry.1.contains(&x) && entry.1.contains(&y);
                    let result = entry.0.not_distance(x, y, 1);
                    match result {
                        Ok(c) => {
                            assert!(owned, "accepted a foreign variable");
                            entry.2.push(c);
                            all_constraints.push(c);
                            accepted += 1;
                        }
                        Err(ModelError::ForeignVariable { .. }) => {
                            assert!(!owned, "refused its own variable");
                            refused += 1;
                        }
                        Err(other) => panic!("unexpected {other}"),
                    }
                }
                _ => {}
            }
        }
        // Every constraint ever posted, offered to every model's engine.
        for (model, _, constraints) in &models {
            let mut engine = Engine::new(model);
            for &c in &all_constraints {
                let owned = constraints.contains(&c);
                let outcome = panic_message(|| {
                    engine.set_enabled(c, true);
                });
                assert_eq!(outcome.is_none(), owned, "{c:?}");
                let described = panic_message(|| {
                    model.describe(c);
                });
                assert_eq!(described.is_none(), owned, "{c:?}");
            }
        }
    }
    assert!(
        accepted > 1_000 && refused > 1_000,
        "both kinds are met: {accepted} {refused}"
    );
}
