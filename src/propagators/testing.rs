//! A small harness for propagator unit tests: a model of variables `x0`,
//! `x1`, ... with given ranges, run to the root fixpoint, then domains
//! checked by their printed form.

use crate::{ConstraintId, Engine, Model, VarId};

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
