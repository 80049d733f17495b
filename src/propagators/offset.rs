//! `x = y + c`: keeps the two domains shifted copies of each other.
//!
//! Strength: domain consistent. Idempotent: one pass reaches the fixpoint.
//! Wakes on: `Event::Changed` of `x` or `y`.

use crate::ids::VarId;
use crate::propagator::{Event, Narrow, Priority, Propagation, Status, Subscriptions};
use crate::propagators::BuiltIn;

/// Enforces `x = y + c`; `c` may be negative (`|c| <= 63`, checked by the
/// model), and `x != y` (the engine simplifies `x = x + c` at post time).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Offset {
    pub(crate) x: VarId,
    pub(crate) y: VarId,
    pub(crate) c: i32,
}

impl BuiltIn for Offset {
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
        // A value of x survives only if it is some value of y plus c.
        let from_y = ctx.dom(self.y).shift(self.c);
        ctx.restrict(self.x, from_y)?;
        // A value of y survives only if it is some surviving x minus c. After
        // this pass every x has its y and every y its x: a second pass
        // changes nothing.
        let from_x = ctx.dom(self.x).shift(-self.c);
        ctx.restrict(self.y, from_x)?;
        Ok(Status::Fixpoint)
    }
}

#[cfg(test)]
mod tests {
    use crate::propagators::testing::Bench;

    #[test]
    fn prunes_x_to_shifted_y() {
        let mut b = Bench::new(&[(1, 5), (1, 5)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.offset(x, y, 1).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{2..5}");
        b.assert_dom(y, "{1..4}");
    }

    #[test]
    fn negative_offset_shifts_down() {
        let mut b = Bench::new(&[(0, 9), (5, 6)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.offset(x, y, -3).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{2,3}");
    }

    #[test]
    fn values_pushed_past_63_are_dropped() {
        let mut b = Bench::new(&[(0, 63), (60, 63)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.offset(x, y, 2).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{62,63}");
        b.assert_dom(y, "{60,61}");
    }

    #[test]
    fn fails_when_no_value_has_a_partner() {
        let mut b = Bench::new(&[(0, 2), (0, 2)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.offset(x, y, 3).expect("valid");
        assert!(b.run().is_err());
    }
}
