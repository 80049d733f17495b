//! `x < y + c`: bounds reasoning, as Oz's `<:` and Gecode's `IPL_BND`.
//!
//! Strength: bounds consistent. Idempotent: the new maximum of x depends only
//! on y's maximum and the new minimum of y only on x's minimum, and neither
//! step moves the bound the other reads. Wakes on: `Event::Bounds` of `x`
//! or `y`.

use crate::ids::VarId;
use crate::propagator::{Event, Narrow, Priority, Propagation, Status, Subscriptions};
use crate::propagators::BuiltIn;

/// Enforces `x < y + c` (`c = 0`: `x < y`; `c = 1`: `x <= y`), `x != y`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Less {
    pub(crate) x: VarId,
    pub(crate) y: VarId,
    pub(crate) c: i32,
}

impl BuiltIn for Less {
    #[inline(always)]
    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on(self.x, Event::Bounds);
        subs.on(self.y, Event::Bounds);
    }

    fn priority(&self) -> Priority {
        Priority::Binary
    }

    #[inline(always)]
    fn run<'a, N: Narrow<'a>>(&self, ctx: &mut N) -> Propagation {
        // x < y + c <= max(y) + c, so x <= max(y) + c - 1.
        let (_, yhi) = ctx.bounds(self.y)?;
        ctx.at_most(self.x, i32::from(yhi) + self.c - 1)?;
        // y > x - c >= min(x) - c, so y >= min(x) - c + 1.
        let (xlo, _) = ctx.bounds(self.x)?;
        ctx.at_least(self.y, i32::from(xlo) - self.c + 1)?;
        Ok(Status::Fixpoint)
    }
}

#[cfg(test)]
mod tests {
    use crate::propagators::testing::Bench;

    #[test]
    fn strict_less_trims_both_ends() {
        let mut b = Bench::new(&[(1, 5), (1, 5)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.less(x, y).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{1..4}");
        b.assert_dom(y, "{2..5}");
    }

    #[test]
    fn less_eq_keeps_equal_values() {
        let mut b = Bench::new(&[(3, 5), (1, 3)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.less_eq(x, y).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{3}");
        b.assert_dom(y, "{3}");
    }

    #[test]
    fn bounds_only_leaves_holes_alone() {
        let mut b = Bench::new(&[(0, 9), (0, 9)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.in_set(y, &[2, 9]).expect("valid");
        b.model.less(x, y).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{0..8}");
    }

    #[test]
    fn fails_when_x_starts_above_y() {
        let mut b = Bench::new(&[(4, 5), (1, 4)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.less(x, y).expect("valid");
        assert!(b.run().is_err());
    }

    #[test]
    fn greater_posts_swapped() {
        let mut b = Bench::new(&[(1, 5), (1, 5)]);
        let (x, y) = (b.var(0), b.var(1));
        b.model.greater(x, y).expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(x, "{2..5}");
        b.assert_dom(y, "{1..4}");
    }
}
