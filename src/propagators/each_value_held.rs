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

use super::all_different::at_most_one;
use crate::domain::Domain;
use crate::domain::ones;
use crate::ids::{Group, VarId};
use crate::propagator::{
    Conflict, Event, Narrow, Priority, Propagation, Status, Subscriptions, in_order_from,
};
use crate::propagators::BuiltIn;

/// The largest group whose variables [`EachValueHeld`] narrows with a branch
/// a variable. Both ways make the same restricts in the same order; the
/// branch-free one spends more instructions to avoid mispredicted branches,
/// which pays from about seven variables on (`cargo bench --bench check --
/// uniqueness` and the sudoku rows of `--bench solve`).
const SMALL_GROUP: usize = 6;

/// Enforces that every value of `values` is taken by one of `vars`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EachValueHeld {
    /// The variables' place among the engine's group variables, read
    /// through the context ([`Narrow::group`]).
    pub(crate) vars: Group,
    pub(crate) values: Domain,
    /// `Some(first)` when the variables are `first, first + 1, ...` in
    /// order (see [`in_order_from`]): their domains are then read as one
    /// slice.
    pub(crate) first: Option<u32>,
}

/// The values some domain of `doms` holds, those two hold, and those of
/// the fixed ones (one pass, no branch).
#[inline(always)]
fn holders(doms: impl Iterator<Item = u64>) -> (u64, u64, u64) {
    let (mut once, mut twice, mut settled) = (0u64, 0u64, 0u64);
    for d in doms {
        twice |= once & d;
        once |= d;
        settled |= d & u64::from(at_most_one(d)).wrapping_neg();
    }
    (once, twice, settled)
}

impl EachValueHeld {
    /// The propagator for `vars`, placed at `group` among the engine's
    /// group variables, and `values`.
    #[inline(always)]
    pub(crate) fn new(vars: &[VarId], group: Group, values: Domain) -> EachValueHeld {
        EachValueHeld {
            first: in_order_from(vars).map(|f| f as u32),
            vars: group,
            values,
        }
    }

    /// Fixes each variable that alone can take a value of `single` to it, a
    /// variable at a time, in order; returns whether a domain changed.
    fn fix_singles_branching<'a>(
        &self,
        ctx: &mut impl Narrow<'a>,
        vars: &[VarId],
        single: u64,
    ) -> Result<bool, Conflict> {
        let mut changed = false;
        for &x in vars {
            let mine = ctx.dom(x).bits() & single;
            if mine != 0 {
                // One variable cannot hold two values alone: restricting to
                // both leaves two values, then the next round finds the
                // other unheld and fails; fail now instead.
                if !at_most_one(mine) {
                    return Err(Conflict);
                }
                changed |= ctx.restrict(x, Domain::from_bits(mine))?;
            }
        }
        Ok(changed)
    }

    /// As [`Self::fix_singles_branching`], the same restricts in the same
    /// order, without a branch a variable: first the positions that must
    /// narrow to their single values. Each single value lies in one
    /// position's domain only, so the positions' shares of `single` are
    /// disjoint and cover it, and one position holds two of them exactly
    /// when the shares' lowest values do not cover it.
    fn fix_singles<'a>(
        &self,
        ctx: &mut impl Narrow<'a>,
        vars: &[VarId],
        single: u64,
    ) -> Result<bool, Conflict> {
        let (mut narrow, mut lowest) = (0u64, 0u64);
        for (i, &x) in vars.iter().enumerate() {
            let d = ctx.dom(x).bits();
            let mine = d & single;
            lowest |= mine & mine.wrapping_neg();
            narrow |= u64::from(mine != 0 && mine != d) << i;
        }
        // Restricting a position to two values it alone holds leaves it two,
        // then the next round finds the other unheld and fails: fail at it
        // instead, after the restricts of the positions before it.
        let first_alone = if lowest == single {
            None
        } else {
            first_alone(ctx, vars, single)
        };
        let before = first_alone.map_or(u64::MAX, |f| (1u64 << f) - 1);
        for i in ones(narrow & before) {
            // The variable keeps its single value; restricting to all of
            // `single` is the same, as it holds no other.
            ctx.restrict(vars[i], Domain::from_bits(single))?;
        }
        if first_alone.is_some() {
            return Err(Conflict);
        }
        Ok(narrow != 0)
    }
}

/// The first position of `vars` whose domain holds two values of `single`.
#[cold]
fn first_alone<'a>(ctx: &impl Narrow<'a>, vars: &[VarId], single: u64) -> Option<usize> {
    vars.iter()
        .position(|&x| !at_most_one(ctx.dom(x).bits() & single))
}

impl BuiltIn for EachValueHeld {
    #[inline(always)]
    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on_group(self.vars, Event::Changed);
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn run<'a, N: Narrow<'a>>(&self, ctx: &mut N) -> Propagation {
        let must = self.values.bits();
        let vars = ctx.group(self.vars);
        loop {
            let (once, twice, settled) = match self.first {
                Some(first) => holders(ctx.doms()[first as usize..][..vars.len()].iter().copied()),
                None => holders(vars.iter().map(|&x| ctx.dom(x).bits())),
            };
            // A value nobody can take can never be held.
            if must & !once != 0 {
                return Err(Conflict);
            }
            // A value exactly one variable can take must be that variable's;
            // a fixed variable's own value already is, so fixing it again
            // would change nothing.
            let single = must & once & !twice & !settled;
            if single == 0 {
                return Ok(Status::Fixpoint);
            }
            // Whether fixing changed a domain.
            let changed = if vars.len() <= SMALL_GROUP {
                self.fix_singles_branching(ctx, vars, single)?
            } else {
                self.fix_singles(ctx, vars, single)?
            };
            // Fixing removed values from the fixed variables only; if none
            // was fixed anew, the counts stand.
            if !changed {
                return Ok(Status::Fixpoint);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EachValueHeld;
    use crate::Domain;
    use crate::check::SplitMix64;
    use crate::ids::VarId;
    use crate::propagator::{Conflict, Traced};
    use crate::propagators::BuiltIn;
    use crate::propagators::testing::{
        Bench, group_in_order, lists, random_domains, record_in, whole,
    };

    /// A fixer's result and the narrowings it made, in order.
    type Run = (Result<bool, Conflict>, Vec<(usize, u64, u64)>);

    /// Runs `fix` on `doms` with no wake-ups: its result and narrowings.
    fn record_fix(
        p: &EachValueHeld,
        vars: &[VarId],
        doms: &mut [u64],
        single: u64,
        fix: impl FnOnce(&EachValueHeld, &mut Traced<'_, '_>, &[VarId], u64) -> Result<bool, Conflict>,
    ) -> Run {
        record_in(lists(vars, &[]), doms, &mut [], |ctx| {
            fix(p, ctx, vars, single)
        })
    }

    #[test]
    fn both_ways_of_fixing_sole_holders_make_the_same_restricts_in_order() {
        // Groups of 2 to 12 positions over fewer variables (so some repeat)
        // and random domains: whatever the group size, the branch-free way
        // must agree with the branching one on the result, every narrowing
        // and its order.
        let mut rng = SplitMix64::new(3);
        let (mut fixed, mut conflicts) = (0, 0);
        for _ in 0..20_000 {
            let n = 2 + rng.below(11);
            let m = 2 + rng.below(n);
            let vars: Vec<VarId> = (0..n).map(|_| VarId::new(0, rng.below(m) as u32)).collect();
            let mut doms: Vec<u64> = (0..m)
                .map(|_| (0..1 + rng.below(4)).fold(0, |d, _| d | 1 << rng.below(10)))
                .collect();
            let (mut once, mut twice) = (0u64, 0u64);
            for x in vars.iter() {
                twice |= once & doms[x.index()];
                once |= doms[x.index()];
            }
            let single = once & !twice;
            let p = EachValueHeld::new(&vars, whole(&vars), Domain::from_bits(once));
            let mut other = doms.clone();
            let a = record_fix(&p, &vars, &mut doms, single, |p, ctx, vars, single| {
                p.fix_singles_branching(ctx, vars, single)
            });
            let b = record_fix(&p, &vars, &mut other, single, |p, ctx, vars, single| {
                p.fix_singles(ctx, vars, single)
            });
            assert_eq!(a, b, "group {p:?}");
            assert_eq!(doms, other, "group {p:?}");
            fixed += usize::from(a.0 == Ok(true));
            conflicts += usize::from(a.0.is_err());
        }
        assert!(
            fixed > 1000 && conflicts > 1000,
            "the cases cover both outcomes"
        );
    }

    #[test]
    fn a_group_in_declaration_order_reads_its_domains_as_one_slice_alike() {
        // The same group, once known to be in declaration order and once
        // not: the same result and narrowings, in order.
        let mut rng = SplitMix64::new(19);
        for _ in 0..5_000 {
            let n = 2 + rng.below(9);
            let first = rng.below(20);
            let vars = group_in_order(first, n);
            let doms = random_domains(&mut rng, first + n, 1, 0, n + 2);
            let values = (0..n).fold(0u64, |d, _| d | 1 << rng.below(n + 2));
            let in_order = EachValueHeld::new(&vars, whole(&vars), Domain::from_bits(values));
            assert_eq!(in_order.first, Some(first as u32));
            let unknown = EachValueHeld {
                first: None,
                ..in_order
            };
            let (mut a, mut b) = (doms.clone(), doms);
            let ra = record_in(lists(&vars, &[]), &mut a, &mut [], |ctx| in_order.run(ctx));
            let rb = record_in(lists(&vars, &[]), &mut b, &mut [], |ctx| unknown.run(ctx));
            assert_eq!(ra, rb, "group {in_order:?}");
            assert_eq!(a, b);
        }
    }

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
