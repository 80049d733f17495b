//! The built-in propagators, one file each, and the table that makes them
//! the engine's: [`AnyPropagator`], a built-in stored by value and
//! dispatched statically, or a user's propagator by its index. Either is
//! plain data: a propagator's lists (group variables, offsets) and the
//! user's propagators stay in the engine, lent to every run
//! ([`Lists`](crate::propagator::Lists)).
//!
//! # Adding a built-in propagator
//!
//! 1. Write its file here: the struct, its module doc (relation, strength,
//!    wake events, idempotence) and an implementation of [`BuiltIn`], whose
//!    `run` is generic over the narrowing context ([`Narrow`]) so that the
//!    engine runs it untraced and traced from one body.
//! 2. Add its name to the `built_ins!` table below: that makes its
//!    variant of [`AnyPropagator`] and the arms that dispatch to it.
//! 3. Lower a constraint to it in the engine (`engine/lower.rs`), where
//!    post-time simplification happens.
//!
//! The oracle tests in `tests/propagators.rs` run every constraint through
//! this table against brute force.

use std::sync::Arc;

use crate::propagator::{
    Ctx, Narrow, OneWord, Priority, Propagation, Propagator, Subscriptions, Untraced,
};

mod all_different;
mod distance;
mod each_value_held;
mod equal;
mod in_set;
mod less;
mod not_distance;
mod offset;
#[cfg(test)]
pub(crate) mod testing;

pub(crate) use all_different::{AllDifferentDomain, AllDifferentValue};
pub(crate) use distance::Distance;
pub(crate) use each_value_held::EachValueHeld;
pub(crate) use equal::Equal;
pub(crate) use in_set::InSet;
pub(crate) use less::Less;
pub(crate) use not_distance::NotDistance;
pub(crate) use offset::Offset;

/// What the engine needs of a built-in propagator. (A user's propagator
/// implements the public [`Propagator`] instead; the built-ins have no
/// need of its dynamic dispatch.)
pub(crate) trait BuiltIn {
    /// Lists the variables to wake on, with the event on each (see
    /// [`Propagator::subscribe`]).
    fn subscribe(&self, subs: &mut Subscriptions);

    /// The cost class; cheaper classes run first.
    fn priority(&self) -> Priority;

    /// How many state words the propagator keeps (see
    /// [`Propagator::state_words`]).
    fn state_words(&self) -> usize {
        0
    }

    /// Narrows domains through `ctx`, under the contract of
    /// [`Propagator::propagate`].
    ///
    /// # Errors
    ///
    /// [`Conflict`](crate::propagator::Conflict) when no solution is left.
    fn run<'a, N: Narrow<'a>>(&self, ctx: &mut N) -> Propagation;
}

/// Runs one kind of built-in, out of line: the fixpoint loop dispatches by
/// one jump to the kind's own function.
#[inline(never)]
fn run_built_in<'a, P: BuiltIn, N: Narrow<'a>>(p: &P, ctx: &mut N) -> Propagation {
    p.run(ctx)
}

/// Runs one kind of propagator in the engine's most common context,
/// untraced with a one-word queue: the engine keeps it beside the
/// propagator ([`AnyPropagator::shape`]) and calls it without matching on
/// the kind.
pub(crate) type Runner =
    for<'a, 'c> fn(&AnyPropagator, &'c mut Untraced<'a, OneWord<'a>>) -> Propagation;

/// Makes [`AnyPropagator`] from the list of built-in kinds: a variant for
/// each, its `From`, and the dispatch of every method of [`BuiltIn`].
macro_rules! built_ins {
    ($($kind:ident),* $(,)?) => {
        /// A propagator as the engine stores it: plain data, its lists at
        /// their places in the engine's ([`Lists`]).
        #[derive(Debug, Clone, Copy)]
        pub(crate) enum AnyPropagator {
            $(
                #[doc = concat!("A [`", stringify!($kind), "`] propagator.")]
                $kind($kind),
            )*
            /// A user's propagator, by its index among the model's.
            Custom(u32),
        }

        $(
            impl From<$kind> for AnyPropagator {
                #[inline(always)]
                fn from(p: $kind) -> AnyPropagator {
                    AnyPropagator::$kind(p)
                }
            }
        )*

        /// The built-in kinds, by name, in the table's order.
        #[cfg(test)]
        pub(crate) const KINDS: &[&str] = &[$(stringify!($kind)),*];

        impl AnyPropagator {
            /// The kind's name, as [`KINDS`] has it; `Custom` for a user's.
            #[cfg(test)]
            pub(crate) fn kind(&self) -> &'static str {
                match self {
                    $(AnyPropagator::$kind(_) => stringify!($kind),)*
                    AnyPropagator::Custom(_) => "Custom",
                }
            }

            /// What the engine places the propagator by, in one match on
            /// the kind: its priority, its number of state words and its
            /// runner (see [`Runner`]); `customs` are the user's
            /// propagators.
            #[inline(always)]
            pub(crate) fn shape(&self, customs: &[Arc<dyn Propagator + Send + Sync>]) -> (Priority, usize, Runner) {
                match *self {
                    $(AnyPropagator::$kind(ref p) => (p.priority(), p.state_words(), |any, ctx| match any {
                        AnyPropagator::$kind(p) => p.run(ctx),
                        _ => unreachable!("a runner runs its own kind"),
                    }),)*
                    AnyPropagator::Custom(i) => {
                        let p = &customs[i as usize];
                        (p.priority(), p.state_words(), |any, ctx| any.run(ctx))
                    }
                }
            }

            /// Runs the propagator in `ctx` ([`BuiltIn::run`], or for a
            /// user's propagator [`Propagator::propagate`] through a
            /// [`Ctx`]).
            #[inline(always)]
            pub(crate) fn run<'a, N: Narrow<'a>>(&self, ctx: &mut N) -> Propagation {
                match self {
                    $(AnyPropagator::$kind(p) => run_built_in(p, ctx),)*
                    AnyPropagator::Custom(i) => ctx.custom(*i).propagate(&mut Ctx::new(ctx)),
                }
            }

            /// [`BuiltIn::subscribe`] or [`Propagator::subscribe`];
            /// `customs` are the user's propagators.
            #[inline(always)]
            pub(crate) fn subscribe(&self, subs: &mut Subscriptions, customs: &[Arc<dyn Propagator + Send + Sync>]) {
                match self {
                    $(AnyPropagator::$kind(p) => p.subscribe(subs),)*
                    AnyPropagator::Custom(i) => customs[*i as usize].subscribe(subs),
                }
            }
        }
    };
}

// The table: one line a built-in kind.
built_ins!(
    InSet,
    Equal,
    Offset,
    Distance,
    NotDistance,
    Less,
    AllDifferentValue,
    AllDifferentDomain,
    EachValueHeld,
);

#[cfg(test)]
mod tests {
    use crate::domain::Domain;
    use crate::ids::VarId;

    #[test]
    fn untraced_and_traced_runs_narrow_and_wake_alike() {
        // Each propagator of one or two variables, on random domains (fixed
        // ones among them) with random listeners: run untraced, it must
        // leave the result, domains, fixed bits and queue that a traced run
        // leaves.
        use super::testing::run_with_events;
        use super::{AnyPropagator, Distance, Equal, InSet, Less, NotDistance, Offset};
        let mut rng = crate::check::SplitMix64::new(17);
        let (mut narrowed, mut conflicts) = (0, 0);
        for _ in 0..20_000 {
            let (x, y) = (VarId::new(0, 0), VarId::new(0, 1 + rng.below(2) as u32));
            let c = rng.below(7) as i32 - 3;
            let p = match rng.below(6) {
                0 => AnyPropagator::Equal(Equal { x, y }),
                1 => AnyPropagator::Offset(Offset { x, y, c }),
                2 => AnyPropagator::Distance(Distance {
                    x,
                    y,
                    c: c.unsigned_abs(),
                }),
                3 => AnyPropagator::NotDistance(NotDistance {
                    x,
                    y,
                    c: c.unsigned_abs(),
                }),
                4 => AnyPropagator::Less(Less { x, y, c }),
                _ => AnyPropagator::InSet(InSet {
                    x,
                    set: Domain::from_bits(rng.next_u64() & 0xff0),
                }),
            };
            let doms: Vec<u64> = (0..3)
                .map(|_| match rng.below(4) {
                    0 => 1 << (4 + rng.below(8)),
                    _ => (rng.next_u64() & 0xff0) | 1 << (4 + rng.below(8)),
                })
                .collect();
            let wakes_open = rng.next_u64();
            let untraced = run_with_events(&doms, &mut [], false, wakes_open, &p);
            let traced = run_with_events(&doms, &mut [], true, wakes_open, &p);
            assert_eq!(untraced, traced, "{p:?} on {doms:?}");
            narrowed += usize::from(untraced.0.is_ok() && untraced.1 != doms);
            conflicts += usize::from(untraced.0.is_err());
        }
        assert!(
            narrowed > 2_000 && conflicts > 1_000,
            "the cases cover narrowings ({narrowed}) and conflicts ({conflicts})"
        );
    }
}
