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
            // their single values, and those that would have to hold two
            // values alone. Restricting such a one to both leaves two values,
            // then the next round finds the other unheld and fails; fail at
            // it instead, after the restricts of the positions before it.
            let (mut narrow, mut alone) = (0u64, 0u64);
            for (i, &x) in self.vars.iter().enumerate() {
                let d = ctx.dom(x).bits();
                let mine = d & single;
                narrow |= u64::from(mine != 0 && mine != d) << i;
                alone |= u64::from(!at_most_one(mine)) << i;
            }
            // The positions before the first that holds two alone (all of
            // them if none does).
            let before = (alone & alone.wrapping_neg()).wrapping_sub(1);
            for i in ones(narrow & before) {
                // The variable keeps its single value; restricting to all of
                // `single` is the same, as it holds no other.
                ctx.restrict(self.vars[i], Domain::from_bits(single))?;
            }
            if alone != 0 {
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
