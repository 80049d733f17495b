//! `x ∈ S`: the unary constraints `x = v`, `x != v` and `x in {..}`.
//!
//! Strength: domain consistent (it is one intersection). Idempotent.
//! Wakes on: nothing. The engine runs every propagator once at the root, and
//! after that `x` only shrinks, so the intersection never needs redoing.
//! Posting it as a propagator, rather than narrowing the initial domain,
//! lets the trace say which clue removed the values.

use crate::domain::Domain;
use crate::ids::VarId;
use crate::propagator::{Ctx, Narrow, Priority, Propagation, Propagator, Status, Subscriptions};

/// Enforces `x ∈ set`.
#[derive(Clone, Debug)]
pub(crate) struct InSet {
    pub(crate) x: VarId,
    pub(crate) set: Domain,
}

impl InSet {
    /// [`Propagator::propagate`], through either door to the domains.
    #[inline(always)]
    pub(crate) fn run(&self, ctx: &mut impl Narrow) -> Propagation {
        // Every value outside the set violates the constraint.
        ctx.restrict(self.x, self.set)?;
        Ok(Status::Fixpoint)
    }
}

impl Propagator for InSet {
    fn name(&self) -> &'static str {
        "in-set"
    }

    #[inline]
    fn subscribe(&self, _subs: &mut Subscriptions) {}

    fn priority(&self) -> Priority {
        Priority::Unary
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        self.run(ctx)
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        Some(self.set.contains(u32::from(value(self.x))))
    }
}

#[cfg(test)]
mod tests {
    use crate::propagators::testing::Bench;

    #[test]
    fn keeps_only_the_set() {
        let mut b = Bench::new(&[(1, 5)]);
        let x = b.var(0);
        b.model.in_set(x, &[1, 5, 9]).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{1,5}");
    }

    #[test]
    fn fails_when_no_value_is_in_the_set() {
        let mut b = Bench::new(&[(1, 5)]);
        let x = b.var(0);
        b.model.in_set(x, &[0, 6]).expect("valid");
        assert!(b.run().is_err());
    }
}
