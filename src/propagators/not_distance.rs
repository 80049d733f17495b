//! `|x - y| != c`, and `x != y` as its case `c = 0`.
//!
//! Strength: domain consistent. A value `v` of y loses its support only when
//! every value of x is `v - c` or `v + c`: x is fixed (then `v = x ± c`), or x
//! is the pair `{v - c, v + c}` (then `v` is its midpoint, `c > 0`).
//! Wakes on: `Event::Fixed` of `x` or `y` when `c = 0`, where only fixing
//! prunes; `Event::Changed` otherwise, where a pair prunes too.
//! Idempotent: it loops over the two directions until nothing changes.

use crate::domain::Domain;
use crate::ids::VarId;
use crate::propagator::{Event, Narrow, Priority, Propagation, Status, Subscriptions};
use crate::propagators::BuiltIn;

/// Enforces `|x - y| != c` with `0 <= c <= 63` and `x != y`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NotDistance {
    pub(crate) x: VarId,
    pub(crate) y: VarId,
    pub(crate) c: u32,
}

impl NotDistance {
    /// The values of the other variable that no value of `d` supports.
    fn unsupported(&self, d: Domain) -> Domain {
        if d.is_fixed() {
            return d.spread(self.c);
        }
        // A pair {a, a + 2c} leaves its midpoint a + c unsupported.
        if self.c > 0 && d.size() == 2 {
            if let (Some(a), Some(b)) = (d.min(), d.max()) {
                if u32::from(b - a) == 2 * self.c {
                    return Domain::singleton(a + self.c as u8);
                }
            }
        }
        Domain::EMPTY
    }
}

impl BuiltIn for NotDistance {
    #[inline(always)]
    fn subscribe(&self, subs: &mut Subscriptions) {
        let event = if self.c == 0 {
            Event::Fixed
        } else {
            Event::Changed
        };
        subs.on(self.x, event);
        subs.on(self.y, event);
    }

    fn priority(&self) -> Priority {
        Priority::Binary
    }

    #[inline(always)]
    fn run<'a, N: Narrow<'a>>(&self, ctx: &mut N) -> Propagation {
        // Each removal can make the other side fixed or a pair, so repeat
        // until neither side changes; each round removes a value, so this
        // ends after at most 2 * 64 rounds (in practice two).
        loop {
            let from_x = self.unsupported(ctx.dom(self.x));
            ctx.restrict(self.y, !from_x)?;
            let from_y = self.unsupported(ctx.dom(self.y));
            let changed_x = ctx.restrict(self.x, !from_y)?;
            // y was pruned against this x; if x did not change, y's
            // pruning still stands and both sides are done.
            if !changed_x {
                return Ok(Status::Fixpoint);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::propagators::testing::Bench;

    #[test]
    fn not_equal_removes_a_fixed_value() {
        let mut b = Bench::new(&[(2, 2), (1, 3)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.not_equal(x, y).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(y, "{1,3}");
    }

    #[test]
    fn not_equal_fails_on_the_same_fixed_value() {
        let mut b = Bench::new(&[(2, 2), (2, 2)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.not_equal(x, y).expect("valid");
        assert!(b.run().is_err());
    }

    #[test]
    fn not_next_to_a_fixed_house_removes_both_neighbours() {
        let mut b = Bench::new(&[(3, 3), (1, 5)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.not_distance(x, y, 1).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(y, "{1,3,5}");
    }

    #[test]
    fn prunes_the_midpoint_of_a_pair() {
        let mut b = Bench::new(&[(1, 5), (1, 5)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.in_set(x, &[1, 3]).expect("valid");
        b.model.not_distance(x, y, 1).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(y, "{1,3..5}");
    }

    #[test]
    fn chained_fixing_reaches_the_fixpoint() {
        // x = {1} removes 2 from y = {2, 3}; the now fixed y = {3} removes
        // 2 and 4 from x, which has neither.
        let mut b = Bench::new(&[(1, 1), (2, 3)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.not_distance(x, y, 1).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(y, "{3}");
        b.assert_dom(x, "{1}");
    }
}
