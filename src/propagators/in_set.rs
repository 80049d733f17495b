//! `x ∈ S`: the unary constraints `x = v`, `x != v` and `x in {..}`.
//!
//! Strength: domain consistent (it is one intersection). Idempotent.
//! Wakes on: nothing. The engine runs every propagator once at the root, and
//! after that `x` only shrinks, so the intersection never needs redoing.
//! Posting it as a propagator, rather than narrowing the initial domain,
//! lets the trace say which clue removed the values.

use crate::domain::Domain;
use crate::ids::VarId;
use crate::propagator::{Narrow, Priority, Propagation, Status, Subscriptions};
use crate::propagators::BuiltIn;

/// Enforces `x ∈ set`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InSet {
    pub(crate) x: VarId,
    pub(crate) set: Domain,
}

impl BuiltIn for InSet {
    #[inline]
    fn subscribe(&self, _subs: &mut Subscriptions) {}

    fn priority(&self) -> Priority {
        Priority::Unary
    }

    #[inline(always)]
    fn run<'a, N: Narrow<'a>>(&self, ctx: &mut N) -> Propagation {
        // Every value outside the set violates the constraint.
        ctx.restrict(self.x, self.set)?;
        Ok(Status::Fixpoint)
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
