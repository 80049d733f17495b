//! `|x - y| = c`: each value needs a partner exactly `c` away.
//!
//! Strength: domain consistent (Oz's `FD.distance` "may cut holes").
//! Idempotent: a surviving x keeps the y that supported it, because that y
//! is within `c` of a surviving x. Wakes on: `Event::Changed` of `x` or `y`.

use crate::domain::Domain;
use crate::ids::VarId;
use crate::propagator::{Event, Narrow, Priority, Propagation, Status, Subscriptions};
use crate::propagators::BuiltIn;

/// Enforces `|x - y| = c` with `0 <= c <= 63` and `x != y`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Distance {
    pub(crate) x: VarId,
    pub(crate) y: VarId,
    pub(crate) c: u32,
}

impl Distance {
    /// `d.spread(c)`: the model keeps `c` within `0..=63`, so the shifts
    /// need not test for a larger one ([`Domain::spread`] does; masking
    /// the amount costs nothing, as x86 shifts mask it themselves).
    #[inline(always)]
    fn spread(&self, d: Domain) -> Domain {
        debug_assert!(self.c <= 63, "the model checks distances");
        let c = self.c & 63;
        Domain::from_bits(d.bits() << c | d.bits() >> c)
    }
}

impl BuiltIn for Distance {
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
        // x = v needs y = v - c or y = v + c: x keeps the values c away from
        // some y, and then y those c away from some surviving x.
        let from_y = self.spread(ctx.dom(self.y));
        ctx.restrict(self.x, from_y)?;
        let from_x = self.spread(ctx.dom(self.x));
        ctx.restrict(self.y, from_x)?;
        Ok(Status::Fixpoint)
    }
}

#[cfg(test)]
mod tests {
    use crate::propagators::testing::Bench;

    #[test]
    fn next_to_a_fixed_house_leaves_its_neighbours() {
        let mut b = Bench::new(&[(1, 1), (1, 5)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.distance(x, y, 1).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(y, "{2}");
    }

    #[test]
    fn cuts_holes() {
        let mut b = Bench::new(&[(0, 63), (0, 63)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.in_set(y, &[0, 10, 63]).expect("valid");
        b.model.distance(x, y, 2).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{2,8,12,61}");
    }

    #[test]
    fn fails_when_too_far_apart() {
        let mut b = Bench::new(&[(0, 1), (5, 6)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.distance(x, y, 1).expect("valid");
        assert!(b.run().is_err());
    }
}
