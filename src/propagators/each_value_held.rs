//! Each value held: every value of a set `S` is taken by some variable of a
//! group (seed 000's "someone must hold each value"; with an all-different
//! over as many variables as values, this is a permutation).
//!
//! Strength: a value no variable can take is a conflict; a value only one
//! variable can take is fixed there ("hidden single" in Sudoku terms). That
//! is weaker than domain consistency for the combined permutation, which is
//! what the domain all-different adds.
//! Wakes on: `Event::Changed` of every variable.
//! Idempotent: it loops until fixing a variable changes nothing more.
//!
//! Counting holders takes two bit masks and one pass: `once` collects the
//! values some variable can take, `twice` those two variables can take.

use super::all_different::{at_most_one, ones};
use super::{Conflict, Ctx, Event, Priority, Propagation, Propagator, Status, Subscriptions};
use crate::domain::Domain;
use crate::model::VarId;

/// Enforces that every value of `values` is taken by one of `vars`.
#[derive(Clone, Debug)]
pub(crate) struct EachValueHeld {
    pub(crate) vars: Box<[VarId]>,
    pub(crate) values: Domain,
}

impl EachValueHeld {
    /// The first position whose domain holds two values of `single`.
    #[cold]
    fn first_alone(&self, ctx: &Ctx<'_>, single: u64) -> Option<usize> {
        self.vars
            .iter()
            .position(|&x| !at_most_one(ctx.dom(x).bits() & single))
    }
}

impl Propagator for EachValueHeld {
    fn name(&self) -> &'static str {
        "each-value-held"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        for &x in self.vars.iter() {
            subs.on(x, Event::Changed);
        }
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        let must = self.values.bits();
        loop {
            let (mut once, mut twice) = (0u64, 0u64);
            for &x in self.vars.iter() {
                let d = ctx.dom(x).bits();
                twice |= once & d;
                once |= d;
            }
            // A value nobody can take can never be held.
            if must & !once != 0 {
                return Err(Conflict);
            }
            // A value exactly one variable can take must be that variable's.
            let single = must & once & !twice;
            if single == 0 {
                return Ok(Status::Fixpoint);
            }
            // Without a branch a variable: the positions that must narrow to
            // their single values. Each single value lies in one position's
            // domain only, so the positions' shares of `single` are disjoint
            // and cover it, and one position holds two of them exactly when
            // the shares' lowest values do not cover it.
            let (mut narrow, mut lowest) = (0u64, 0u64);
            for (i, &x) in self.vars.iter().enumerate() {
                let d = ctx.dom(x).bits();
                let mine = d & single;
                lowest |= mine & mine.wrapping_neg();
                narrow |= u64::from(mine != 0 && mine != d) << i;
            }
            // Restricting a position to two values it alone holds leaves it
            // two, then the next round finds the other unheld and fails:
            // fail at it instead, after the restricts of the positions
            // before it.
            let first_alone = if lowest == single {
                None
            } else {
                self.first_alone(ctx, single)
            };
            let before = first_alone.map_or(u64::MAX, |f| (1u64 << f) - 1);
            for i in ones(narrow & before) {
                // The variable keeps its single value; restricting to all of
                // `single` is the same, as it holds no other.
                ctx.restrict(self.vars[i], Domain::from_bits(single))?;
            }
            if first_alone.is_some() {
                return Err(Conflict);
            }
            // Fixing removed values from the fixed variables only; if none
            // was fixed anew, the counts stand.
            if narrow == 0 {
                return Ok(Status::Fixpoint);
            }
        }
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        let held = self
            .vars
            .iter()
            .fold(Domain::EMPTY, |d, &x| d | Domain::singleton(value(x)));
        Some(self.values - held == Domain::EMPTY)
    }
}

#[cfg(test)]
mod tests {
    use crate::Domain;
    use crate::propagators::testing::Bench;

    #[test]
    fn fixes_the_only_holder() {
        let mut b = Bench::new(&[(1, 2), (1, 2), (1, 3)]);
        let vars = [b.var(0), b.var(1), b.var(2)];
        b.model
            .each_value_held(&vars, Domain::range(1, 3))
            .expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(vars[2], "{3}");
        b.assert_dom(vars[0], "{1,2}");
    }

    #[test]
    fn fails_when_a_value_has_no_holder() {
        let mut b = Bench::new(&[(1, 2), (1, 2), (1, 2)]);
        let vars = [b.var(0), b.var(1), b.var(2)];
        b.model
            .each_value_held(&vars, Domain::range(1, 3))
            .expect("valid");
        assert!(b.run().is_err());
    }

    #[test]
    fn fails_when_one_variable_alone_must_hold_two_values() {
        let mut b = Bench::new(&[(1, 1), (1, 3)]);
        let vars = [b.var(0), b.var(1)];
        b.model
            .each_value_held(&vars, Domain::from_iter([2, 3]))
            .expect("valid");
        assert!(b.run().is_err());
    }

    #[test]
    fn cascades_until_stable() {
        // 3 is only y's; fixing y = 3 leaves 2 only to z.
        let mut b = Bench::new(&[(1, 1), (2, 3), (1, 2)]);
        let vars = [b.var(0), b.var(1), b.var(2)];
        b.model
            .each_value_held(&vars, Domain::range(1, 3))
            .expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(vars[1], "{3}");
        b.assert_dom(vars[2], "{2}");
    }
}
