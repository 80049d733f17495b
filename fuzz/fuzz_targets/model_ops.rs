//! Fuzzes building models from arbitrary operations: declarations, clones,
//! clears, posts with any handle ever made (foreign ones among them),
//! user propagators asking for any number of state words, engines switching
//! any constraint. Every call must give a result or the documented panic
//! ("belongs to another model", "was not posted"), never another panic,
//! an abort or a mix-up: a post is accepted exactly when the model owns
//! every variable, as tracked here apart from the library.

#![no_main]

use std::panic::{AssertUnwindSafe, catch_unwind};

use bitfd::propagator::{Ctx, Event, Propagation, Propagator, Status, Subscriptions};
use bitfd::{
    ConstraintId, Engine, MAX_MODEL_STATE_WORDS, MAX_STATE_WORDS, Model, ModelError, SearchOptions,
    Solver, VarId,
};
use libfuzzer_sys::fuzz_target;

/// The panic message of `f`, if it panics. libfuzzer-sys's panic hook
/// aborts before `catch_unwind` can catch anything, so a silent hook stands
/// in for it while `f` runs: an expected, documented panic is then a
/// result, and any other panic still reaches the fuzzer.
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

/// One model and what the target tracks of it apart from the library: the
/// variables and constraints it owns, and its propagators' state words.
type Entry = (Model, Vec<VarId>, Vec<ConstraintId>, usize);

/// The state words a search may copy, over all its levels, for one model:
/// each level copies the whole state, so a model at
/// `MAX_MODEL_STATE_WORDS` (8 MiB) searched to 20 nodes in each of 16
/// clones is seconds of copying under AddressSanitizer, the documented
/// cost rather than a hang; such a model is searched to fewer nodes.
const COPY_BUDGET: usize = 1 << 21;

/// A user propagator asking for `words` state words.
#[derive(Debug)]
struct Words {
    x: VarId,
    words: usize,
}

impl Propagator for Words {
    fn name(&self) -> &'static str {
        "words"
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

fuzz_target!(|data: &[u8]| {
    let mut models: Vec<Entry> = vec![(Model::new(), vec![], vec![], 0)];
    let mut vars: Vec<VarId> = Vec::new();
    let mut constraints: Vec<ConstraintId> = Vec::new();
    for (step, op) in data.chunks(3).enumerate() {
        let [kind, a, b] = [op[0], *op.get(1).unwrap_or(&0), *op.get(2).unwrap_or(&0)];
        let m = usize::from(a) % models.len();
        match kind % 6 {
            0 if models.len() < 16 => {
                let (model, v, c, words) = &models[m];
                let copy = (model.clone(), v.clone(), c.clone(), *words);
                models.push(copy);
            }
            1 => {
                let entry = &mut models[m];
                entry.0.clear();
                entry.1.clear();
                entry.2.clear();
                entry.3 = 0;
            }
            2 => {
                let entry = &mut models[m];
                let x = entry
                    .0
                    .int_var(&format!("v{step}"), 0, i64::from(b % 64))
                    .expect("fresh");
                entry.1.push(x);
                vars.push(x);
            }
            3 if !vars.is_empty() => {
                let (x, y) = (
                    vars[usize::from(b) % vars.len()],
                    vars[usize::from(a) % vars.len()],
                );
                let entry = &mut models[m];
                let owned = entry.1.contains(&x) && entry.1.contains(&y);
                match entry.0.less(x, y) {
                    Ok(c) => {
                        assert!(owned);
                        entry.2.push(c);
                        constraints.push(c);
                    }
                    Err(ModelError::ForeignVariable { .. }) => assert!(!owned),
                    Err(other) => panic!("{other}"),
                }
            }
            4 if !vars.is_empty() => {
                let x = vars[usize::from(b) % vars.len()];
                let words = 1usize << (usize::from(a) % 64);
                let entry = &mut models[m];
                let owned = entry.1.contains(&x);
                let fits = words <= MAX_STATE_WORDS && entry.3 + words <= MAX_MODEL_STATE_WORDS;
                match entry.0.post_propagator(Words { x, words }) {
                    Ok(c) => {
                        assert!(owned && fits);
                        entry.2.push(c);
                        entry.3 += words;
                        constraints.push(c);
                    }
                    Err(ModelError::ForeignVariable { .. }) => assert!(!owned),
                    Err(ModelError::StateTooLarge { .. }) => assert!(!fits),
                    Err(other) => panic!("{other}"),
                }
            }
            5 if !constraints.is_empty() => {
                let c = constraints[usize::from(b) % constraints.len()];
                let (model, _, owned, _) = &models[m];
                let mut engine = Engine::new(model);
                let message = panic_message(|| {
                    engine.set_enabled(c, false);
                });
                match message {
                    None => assert!(owned.contains(&c)),
                    Some(text) => {
                        assert!(!owned.contains(&c), "an owned constraint panicked: {text}");
                        assert!(text.contains("was not posted"), "{text}");
                    }
                }
            }
            _ => {}
        }
    }
    for (model, _, _, words) in &models {
        // At least two nodes, so that even the largest state is copied
        // down a level once.
        let nodes = (COPY_BUDGET / (*words).max(1)).clamp(2, 20);
        let options = SearchOptions::default().node_limit(nodes as u64);
        Solver::new(model).count(&options);
    }
});
