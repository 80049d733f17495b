//! A small harness for propagator unit tests: a model of variables `x0`,
//! `x1`, ... with given ranges, run to the root fixpoint, then domains
//! checked by their printed form.

use crate::propagators::{Ctx, PruneSink, Wakeups};
use crate::{ConstraintId, Domain, Engine, Model, VarId};

pub(crate) struct Bench {
    pub(crate) model: Model,
    engine: Option<Engine>,
}

impl Bench {
    pub(crate) fn new(ranges: &[(i64, i64)]) -> Bench {
        let mut model = Model::new();
        for (i, &(lo, hi)) in ranges.iter().enumerate() {
            model
                .int_var(&format!("x{i}"), lo, hi)
                .expect("valid range");
        }
        Bench {
            model,
            engine: None,
        }
    }

    pub(crate) fn var(&self, i: usize) -> VarId {
        self.model.vars().nth(i).expect("declared variable")
    }

    /// Builds the engine and propagates to the root fixpoint.
    pub(crate) fn run(&mut self) -> Result<(), ConstraintId> {
        let mut engine = Engine::new(&self.model);
        let result = engine.propagate();
        self.engine = Some(engine);
        result
    }

    pub(crate) fn assert_dom(&self, x: VarId, expected: &str) {
        let engine = self.engine.as_ref().expect("run() first");
        assert_eq!(
            engine.dom(x).to_string(),
            expected,
            "domain of {}",
            self.model.name(x)
        );
    }
}

/// Every narrowing, as the trace would see it: variable index, before, after.
#[derive(Default)]
struct Prunings(Vec<(usize, u64, u64)>);

impl PruneSink for Prunings {
    fn pruned(&mut self, x: VarId, before: Domain, after: Domain) {
        self.0.push((x.index(), before.bits(), after.bits()));
    }
}

/// Runs `run` on the domains `doms` and propagator state `state`, with no
/// wake-ups, and returns its result and the narrowings it made, in order.
pub(crate) fn record<R>(
    doms: &mut [u64],
    state: &mut [u64],
    run: impl FnOnce(&mut Ctx<'_>) -> R,
) -> (R, Vec<(usize, u64, u64)>) {
    // One queue word: wake-ups go through masks, all empty here.
    let masks = vec![0u64; 3 * doms.len()];
    let wakeups = Wakeups {
        masks: &masks,
        bounds: &[],
        list: &[],
    };
    let mut queue = [0u64; 1];
    let mut seen = Prunings::default();
    let mut fixed = vec![0u64; doms.len().div_ceil(64)];
    super::fixed_bits(doms, &mut fixed);
    let mut ctx = Ctx::new(
        doms,
        &mut fixed,
        state,
        &mut queue,
        wakeups,
        Some(&mut seen),
    );
    let result = run(&mut ctx);
    (result, seen.0)
}
