//! `x = y`: keeps the two domains equal.
//!
//! Strength: domain consistent. Idempotent: after one pass both domains are
//! the intersection. Wakes on: `Event::Changed` of `x` or `y`.

use crate::ids::VarId;
use crate::propagator::{Event, Narrow, Priority, Propagation, Status, Subscriptions};
use crate::propagators::BuiltIn;

/// Enforces `x = y`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Equal {
    pub(crate) x: VarId,
    pub(crate) y: VarId,
}

impl BuiltIn for Equal {
    #[inline(always)]
    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on(self.x, Event::Changed);
        subs.on(self.y, Event::Changed);
    }

    fn priority(&self) -> Priority {
        Priority::Binary
    }

    #[inline(always)]
    fn run<'a, N: Narrow<'a>>(&self, ctx: &mut N) -> Propagation {
        // A value survives only if both sides can take it.
        let both = ctx.dom(self.x) & ctx.dom(self.y);
        ctx.restrict(self.x, both)?;
        ctx.restrict(self.y, both)?;
        Ok(Status::Fixpoint)
    }
}

#[cfg(test)]
mod tests {
    use crate::propagators::testing::Bench;

    #[test]
    fn prunes_both_sides_to_the_intersection() {
        let mut b = Bench::new(&[(1, 4), (3, 6)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.equal(x, y).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{3,4}");
        b.assert_dom(y, "{3,4}");
    }

    #[test]
    fn fails_on_disjoint_domains() {
        let mut b = Bench::new(&[(1, 2), (3, 4)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.equal(x, y).expect("valid");
        assert!(b.run().is_err());
    }
}
