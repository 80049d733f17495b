//! Domain-strength all-different: every value left belongs to some
//! assignment of pairwise distinct (shifted) values.
//!
//! Strength: domain consistent (Hall sets, Régin's matching).
//! Wakes on: `Event::Changed` of every variable.
//! Idempotent: one pass reaches domain consistency, unless a variable
//! occurs twice (then a narrowing through one position may allow more at
//! another, and a run reports `Status::Changed`).

use std::sync::Arc;

use super::matching::{consistent, consistent8};
use super::{all_distinct, at_most_one, ones, shift};
use crate::domain::Domain;
use crate::model::VarId;
use crate::propagators::{
    Conflict, Ctx, Event, Priority, Propagation, Propagator, Status, Subscriptions,
};

/// Domain-strength all-different (Hall sets, Régin's matching).
#[derive(Clone, Debug)]
pub(crate) struct AllDifferentDomain {
    pub(crate) vars: Arc<[VarId]>,
    /// One offset a variable, or none at all when every offset is zero.
    pub(crate) offsets: Box<[i32]>,
    /// Some variable occurs twice, so the filtering may not be idempotent.
    pub(crate) repeats: bool,
    /// Some offset is not zero (`offsets` is not empty).
    pub(crate) shifted: bool,
}

impl AllDifferentDomain {
    #[inline(always)]
    fn offset(&self, i: usize) -> i32 {
        self.offsets[i]
    }

    /// Domain-consistent filtering with scratch arrays for up to `N`
    /// positions, on a local copy of the (shifted) domains:
    ///
    /// 1. **Fixed values.** A fixed position's value goes from every other
    ///    position, until no new position is fixed (two fixed on one value:
    ///    a conflict). A fixed position is a one-element Hall set, so this is
    ///    part of domain consistency, and it leaves the open positions
    ///    holding none of the fixed values. It is all a unit needs once at
    ///    most two positions are open: two open positions of two values or
    ///    more each have no Hall set but both, and nothing lies outside it.
    /// 2. **Régin's matching** on the open positions, bit-parallel (see
    ///    [`consistent`], and [`consistent8`] for groups of eight or fewer).
    ///
    /// Domain consistency is unique, so how it is computed never changes a
    /// fixpoint, a tree or a trace: the restricts come last, one for each
    /// narrowed position, in position order.
    #[inline(always)]
    fn filter<const N: usize>(&self, ctx: &mut Ctx<'_>) -> Propagation {
        let n = self.vars.len();
        debug_assert!(n <= N, "the caller picks a tier that fits");
        let mut dom = [0u64; N];
        let mut fixed = 0u64;
        for (i, &x) in self.vars.iter().enumerate() {
            let d = ctx.dom(x).bits();
            let d = if self.shifted {
                shift(d, self.offset(i))
            } else {
                d
            };
            dom[i] = d;
            fixed |= u64::from(at_most_one(d)) << i;
        }
        let mut open = !fixed & (u64::MAX >> (64 - n));
        // The positions whose domain this run narrows.
        let mut narrowed = 0u64;

        // Phase 1: fixed values leave the other positions.
        let mut fresh = fixed;
        while fresh != 0 {
            let (mut taken, mut clash) = (0u64, 0u64);
            for i in ones(fresh) {
                clash |= taken & dom[i];
                taken |= dom[i];
            }
            // Two fixed positions on one value.
            if clash != 0 {
                return Err(Conflict);
            }
            let mut empty = false;
            fresh = 0;
            for i in ones(open) {
                let d = dom[i];
                let left = d & !taken;
                dom[i] = left;
                narrowed |= u64::from(left != d) << i;
                empty |= left == 0;
                fresh |= u64::from(at_most_one(left)) << i;
            }
            // An open position held nothing but fixed values.
            if empty {
                return Err(Conflict);
            }
            open &= !fresh;
        }

        // Phase 2, for three open positions or more (two cleared, some left).
        let two_cleared = open & open.wrapping_sub(1);
        if two_cleared & two_cleared.wrapping_sub(1) != 0 {
            // The smallest tier (its array is exactly eight long) works in
            // position space, on 8×8 bit matrices.
            narrowed |= match <&mut [u64; 8]>::try_from(&mut dom[..]) {
                Ok(small) => consistent8(small, open)?,
                Err(_) => consistent::<N>(&mut dom, n, open)?,
            };
        }

        for i in ones(narrowed) {
            let keep = if self.shifted {
                shift(dom[i], -self.offset(i))
            } else {
                dom[i]
            };
            ctx.restrict(self.vars[i], Domain::from_bits(keep))?;
        }
        // A repeated variable narrowed through one position may allow more
        // pruning at its other positions.
        Ok(if self.repeats {
            Status::Changed
        } else {
            Status::Fixpoint
        })
    }
}

impl Propagator for AllDifferentDomain {
    fn name(&self) -> &'static str {
        "all-different"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on_each(&self.vars, Event::Changed);
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        // The scratch arrays are sized by a tier of the group size, so a
        // five-variable group does not clear tables for sixty-four.
        match self.vars.len() {
            0..=8 => self.filter::<8>(ctx),
            9..=16 => self.filter::<16>(ctx),
            17..=32 => self.filter::<32>(ctx),
            _ => self.filter::<64>(ctx),
        }
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        Some(all_distinct(&self.vars, &self.offsets, value))
    }
}

#[cfg(test)]
mod tests {
    use crate::Strength;
    use crate::propagators::testing::Bench;

    #[test]
    fn domain_strength_fails_on_a_pigeonhole() {
        let mut b = Bench::new(&[(1, 2), (1, 2), (1, 2)]);
        let vars = [b.var(0), b.var(1), b.var(2)];
        b.model
            .all_different(&vars, Strength::Domain)
            .expect("valid");
        assert!(b.run().is_err());
    }

    #[test]
    fn domain_strength_keeps_values_on_alternating_cycles() {
        // x0, x1 in {1,2} form a Hall set; x2, x3 in {3,4} another. Every
        // remaining value is part of some solution.
        let mut b = Bench::new(&[(1, 2), (1, 2), (1, 4), (3, 4)]);
        let vars = [b.var(0), b.var(1), b.var(2), b.var(3)];
        b.model
            .all_different(&vars, Strength::Domain)
            .expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(vars[0], "{1,2}");
        b.assert_dom(vars[2], "{3,4}");
        b.assert_dom(vars[3], "{3,4}");
    }
}
