//! The built-in propagators, one file each, and the engine's storage for
//! them ([`AnyPropagator`]): a built-in is stored by value and dispatched
//! statically; a user's propagator sits behind an `Arc`.

use std::sync::Arc;

use crate::propagator::{Ctx, Priority, Propagation, Propagator, Subscriptions};

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

/// Runs one kind of [`AnyPropagator`] (see [`AnyPropagator::runner`]), in
/// a context that may take the quiet door.
pub(crate) type Runner = fn(&AnyPropagator, &mut Ctx<'_>) -> Propagation;

/// The engine's storage for propagators: the built-ins by value, each run
/// by its kind's [`Runner`] with static dispatch inside, and user
/// propagators behind an `Arc`.
#[derive(Debug, Clone)]
pub(crate) enum AnyPropagator {
    InSet(InSet),
    Equal(Equal),
    Offset(Offset),
    Distance(Distance),
    NotDistance(NotDistance),
    Less(Less),
    AllDifferentValue(AllDifferentValue),
    AllDifferentDomain(AllDifferentDomain),
    EachValueHeld(EachValueHeld),
    Custom(Arc<dyn Propagator + Send + Sync>),
}

/// Each built-in kind goes into its variant: a build hands over a
/// propagator of a known kind, so that what it reads off the kind (its
/// runner) is settled without a match.
macro_rules! into_any {
    ($($kind:ident),*) => {
        $(impl From<$kind> for AnyPropagator {
            #[inline(always)]
            fn from(p: $kind) -> AnyPropagator {
                AnyPropagator::$kind(p)
            }
        })*
    };
}
into_any!(
    InSet,
    Equal,
    Offset,
    Distance,
    NotDistance,
    Less,
    AllDifferentValue,
    AllDifferentDomain,
    EachValueHeld
);

/// [`Propagator::propagate`], in a function of its own for each kind: the
/// runs the runners do not serve (traced, or with a queue of several
/// words) go through here ([`AnyPropagator::propagate`]), so that a
/// loop's match on the kind calls one function.
#[inline(never)]
fn propagate_out_of_line(p: &impl Propagator, ctx: &mut Ctx<'_>) -> Propagation {
    p.propagate(ctx)
}

/// Runs `$body` with `$p` bound to the propagator behind `$any`, statically
/// typed for the built-in kinds.
macro_rules! dispatch {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            AnyPropagator::InSet($p) => $body,
            AnyPropagator::Equal($p) => $body,
            AnyPropagator::Offset($p) => $body,
            AnyPropagator::Distance($p) => $body,
            AnyPropagator::NotDistance($p) => $body,
            AnyPropagator::Less($p) => $body,
            AnyPropagator::AllDifferentValue($p) => $body,
            AnyPropagator::AllDifferentDomain($p) => $body,
            AnyPropagator::EachValueHeld($p) => $body,
            AnyPropagator::Custom($p) => $body,
        }
    };
}

impl AnyPropagator {
    /// [`Propagator::priority`], without a virtual call for the built-ins.
    #[inline]
    pub(crate) fn priority(&self) -> Priority {
        dispatch!(self, p => p.priority())
    }

    /// [`Propagator::state_words`], without a virtual call for the
    /// built-ins.
    #[inline(always)]
    pub(crate) fn state_words(&self) -> usize {
        dispatch!(self, p => p.state_words())
    }

    /// [`Propagator::propagate`], without a virtual call for the built-ins
    /// and each kind out of line: for the runs [`AnyPropagator::runner`]
    /// does not serve (traced, or with a queue of several words).
    #[inline(always)]
    pub(crate) fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        match self {
            AnyPropagator::InSet(p) => propagate_out_of_line(p, ctx),
            AnyPropagator::Equal(p) => propagate_out_of_line(p, ctx),
            AnyPropagator::Offset(p) => propagate_out_of_line(p, ctx),
            AnyPropagator::Distance(p) => propagate_out_of_line(p, ctx),
            AnyPropagator::NotDistance(p) => propagate_out_of_line(p, ctx),
            AnyPropagator::Less(p) => propagate_out_of_line(p, ctx),
            AnyPropagator::AllDifferentValue(p) => propagate_out_of_line(p, ctx),
            AnyPropagator::AllDifferentDomain(p) => propagate_out_of_line(p, ctx),
            AnyPropagator::EachValueHeld(p) => propagate_out_of_line(p, ctx),
            AnyPropagator::Custom(p) => p.propagate(ctx),
        }
    }

    /// [`Propagator::subscribe`], without a virtual call for the built-ins
    /// (an engine build makes one a propagator).
    #[inline(always)]
    pub(crate) fn subscribe(&self, subs: &mut Subscriptions) {
        dispatch!(self, p => p.subscribe(subs))
    }

    /// The function that runs this propagator when the run may take the
    /// quiet door ([`Ctx::quiet`]: untraced, with a one-word queue): the
    /// engine keeps it next to the propagator and calls it directly from
    /// that fixpoint loop, instead of matching on the kind at every run.
    /// Other runs go through [`AnyPropagator::propagate`].
    #[inline(always)]
    pub(crate) fn runner(&self) -> Runner {
        macro_rules! run_as {
            ($kind:ident) => {
                |p, ctx| match p {
                    AnyPropagator::$kind(p) => p.propagate(ctx),
                    _ => unreachable!("a runner is only paired with its own kind"),
                }
            };
        }
        // The propagators generic over `Narrow` take the quiet door, with
        // no test whether they may (two instructions a run fewer, and the
        // queue word is read only when they narrow).
        macro_rules! run_quiet_as {
            ($kind:ident) => {
                |p, ctx| match p {
                    AnyPropagator::$kind(p) => p.run(&mut ctx.quiet_known()),
                    _ => unreachable!("a runner is only paired with its own kind"),
                }
            };
        }
        // The domain all-different's runner knows the door is open too.
        macro_rules! run_known_as {
            ($kind:ident) => {
                |p, ctx| match p {
                    AnyPropagator::$kind(p) => p.run_quiet(ctx),
                    _ => unreachable!("a runner is only paired with its own kind"),
                }
            };
        }
        match self {
            AnyPropagator::InSet(_) => run_quiet_as!(InSet),
            AnyPropagator::Equal(_) => run_quiet_as!(Equal),
            AnyPropagator::Offset(_) => run_quiet_as!(Offset),
            AnyPropagator::Distance(_) => run_quiet_as!(Distance),
            AnyPropagator::NotDistance(_) => run_quiet_as!(NotDistance),
            AnyPropagator::Less(_) => run_quiet_as!(Less),
            AnyPropagator::AllDifferentValue(p) => p.runner(),
            AnyPropagator::AllDifferentDomain(_) => run_known_as!(AllDifferentDomain),
            AnyPropagator::EachValueHeld(_) => run_as!(EachValueHeld),
            AnyPropagator::Custom(_) => run_as!(Custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::Domain;
    use crate::ids::VarId;

    #[test]
    fn the_quiet_door_narrows_and_wakes_as_the_context_does() {
        // Each propagator of one or two variables, on random domains (fixed
        // ones among them) with random listeners: its runner, which takes
        // the quiet door when nobody records, must leave the result,
        // domains, fixed bits and queue that `propagate` through the
        // recording context leaves.
        use super::testing::run_with_events;
        use super::{AnyPropagator, Distance, Equal, InSet, Less, NotDistance, Offset, Propagator};
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
            let weak = rng.next_u64();
            let quiet = run_with_events(&doms, &mut [], false, weak, |ctx| (p.runner())(&p, ctx));
            let traced = run_with_events(&doms, &mut [], true, weak, |ctx| match &p {
                AnyPropagator::Equal(p) => p.propagate(ctx),
                AnyPropagator::Offset(p) => p.propagate(ctx),
                AnyPropagator::Distance(p) => p.propagate(ctx),
                AnyPropagator::NotDistance(p) => p.propagate(ctx),
                AnyPropagator::Less(p) => p.propagate(ctx),
                AnyPropagator::InSet(p) => p.propagate(ctx),
                _ => unreachable!("only the kinds above"),
            });
            assert_eq!(quiet, traced, "{p:?} on {doms:?}");
            narrowed += usize::from(quiet.0.is_ok() && quiet.1 != doms);
            conflicts += usize::from(quiet.0.is_err());
        }
        assert!(
            narrowed > 2_000 && conflicts > 1_000,
            "the cases cover narrowings ({narrowed}) and conflicts ({conflicts})"
        );
    }
}
