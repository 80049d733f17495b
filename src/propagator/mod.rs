//! Propagators: the code that narrows domains, and how to write one.
//!
//! A propagator enforces one constraint. The engine calls
//! [`Propagator::propagate`] when a variable it subscribed to changes; the
//! propagator reads domains and removes values through the [`Ctx`] it is
//! handed, and nothing else: it never sees the queue, the search or the trace.
//!
//! # The contract
//!
//! 1. **Sound.** Never remove a value that belongs to a solution of the
//!    constraint. Propagators deduce; they never guess.
//! 2. **Exact when fixed.** Once every variable is fixed, return
//!    `Err(Conflict)` if and only if the constraint is violated. A propagator
//!    that is not run after the last change cannot check, so:
//! 3. **Subscribe to what matters.** [`Propagator::subscribe`] lists the
//!    variables and the [`Event`] on each that may enable new pruning. An
//!    event includes the smaller ones: `Fixed` ⊂ `Bounds` ⊂ `Changed`, so a
//!    subscription to `Changed` also wakes on `Fixed` (Gecode's VAL ⊂ BND ⊂ DOM).
//! 4. **Honest status.** [`Status::Fixpoint`] promises that running again
//!    right away would change nothing; the engine then does not re-run the
//!    propagator for its own changes. [`Status::Changed`] is always safe.
//! 5. **Pure.** `propagate` takes `&self`: whatever must survive between runs
//!    and be undone on backtracking lives in the state words the engine keeps
//!    for the propagator ([`Propagator::state_words`], [`Ctx::state`]), which
//!    search copies along with the domains.
//! 6. **No allocation.** At most 64 values exist, so scratch space fits on
//!    the stack (`[_; 64]`, `ArrayVec<_, 64>`).
//!
//! # Writing one
//!
//! A constraint `x + y = 10`, pruned on bounds only:
//!
//! ```
//! use bitfd::propagator::{Ctx, Event, Propagation, Propagator, Status, Subscriptions};
//! use bitfd::{Model, SearchOptions, Solver, VarId};
//!
//! #[derive(Debug)]
//! struct SumIsTen {
//!     x: VarId,
//!     y: VarId,
//! }
//!
//! impl Propagator for SumIsTen {
//!     fn name(&self) -> &'static str {
//!         "sum-is-ten"
//!     }
//!
//!     fn subscribe(&self, subs: &mut Subscriptions) {
//!         subs.on(self.x, Event::Bounds);
//!         subs.on(self.y, Event::Bounds);
//!     }
//!
//!     fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
//!         // x = 10 - y: x lies between 10 - max(y) and 10 - min(y).
//!         let (ylo, yhi) = ctx.bounds(self.y)?;
//!         ctx.at_least(self.x, 10 - i32::from(yhi))?;
//!         ctx.at_most(self.x, 10 - i32::from(ylo))?;
//!         let (xlo, xhi) = ctx.bounds(self.x)?;
//!         ctx.at_least(self.y, 10 - i32::from(xhi))?;
//!         ctx.at_most(self.y, 10 - i32::from(xlo))?;
//!         // Holes may have moved a bound again: ask to be run once more.
//!         Ok(Status::Changed)
//!     }
//!
//!     fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
//!         Some(u32::from(value(self.x)) + u32::from(value(self.y)) == 10)
//!     }
//! }
//!
//! let mut m = Model::new();
//! let x = m.int_var("x", 0, 9)?;
//! let y = m.var_in("y", &[2, 3, 7])?;
//! m.post_propagator(SumIsTen { x, y })?;
//! let outcome = Solver::new(&m).all(&SearchOptions::default());
//! // First-fail branches on y (3 values) before x (10): y = 2, 3, 7.
//! let xs: Vec<u8> = outcome.solutions.iter().map(|s| s[x]).collect();
//! assert_eq!(xs, vec![8, 7, 3]);
//! # Ok::<(), bitfd::ModelError>(())
//! ```

use std::fmt;

use crate::buffer::make_room;
use crate::domain::Domain;
use crate::ids::{Group, VarId};

mod narrow;

pub(crate) use narrow::{
    DynNarrow, Lists, MASK_WORDS, Narrow, OneWord, PruneSink, RunAs, Traced, Untraced, Wakeups,
    Words, bounds_moved, fixed_bits, fixed_words, has_repeats, in_order_from,
};

/// What a propagator reports when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Running the propagator again now would change nothing.
    Fixpoint,
    /// The propagator may have more to do; the engine runs it again if it
    /// changed a variable it subscribes to. Always safe.
    Changed,
}

/// A propagator found that no solution is left (an empty domain, or a fixed
/// assignment that violates the constraint). Control flow, not an error: it
/// never leaves the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

/// The result of one propagator run; `?` passes a [`Conflict`] on.
pub type Propagation = Result<Status, Conflict>;

/// A kind of domain change a propagator can wait for.
///
/// Each includes the ones before it in this list: a variable that becomes
/// fixed has also had a bound and its domain changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Event {
    /// Any value removed.
    Changed,
    /// The minimum or the maximum changed (or the variable became fixed).
    Bounds,
    /// The variable became fixed.
    Fixed,
}

/// The cost class of a propagator. The engine runs every queued propagator
/// of a cheaper class before any of a more costly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// One variable.
    Unary,
    /// Two variables, constant time.
    Binary,
    /// Linear in the number of variables.
    Linear,
    /// Quadratic or worse.
    Quadratic,
}

/// The events a propagator waits for, filled in by [`Propagator::subscribe`].
#[derive(Clone, Debug, Default)]
pub struct Subscriptions {
    /// `(variable, event, propagator)`, for every propagator subscribed so
    /// far; `owner` is the one subscribing now. Unused while `words` is set.
    list: Vec<(VarId, Event, u32)>,
    owner: u32,
    /// `owner`'s bit in its mask word, and that word's place in a bucket
    /// (worked out once a propagator, not once a subscription).
    bit: u64,
    word: usize,
    /// When not zero, subscriptions go straight into subscriber masks of
    /// this many words a bucket (see [`Wakeups::masks`]), not the list.
    words: usize,
    /// While `words` is set: the engine's buffer, whose masks
    /// `masks[base..]` the subscriptions are written into.
    masks: Vec<u64>,
    /// Where the masks start in `masks`.
    base: usize,
    /// The variables of every group propagator (all-different,
    /// each-value-held) of the engine being built, one run of them a
    /// group: a group propagator keeps its place in this list ([`Group`]),
    /// not a list of its own, so that a build copies each group's
    /// variables into storage kept across builds. Kept here, beside the
    /// subscriptions, because a
    /// group propagator subscribes through it
    /// ([`Subscriptions::on_group`]); the engine lends it to every run's
    /// context ([`Narrow::group`]). Refilled by every build, storage kept.
    groups: Vec<VarId>,
}

impl Subscriptions {
    pub(crate) fn collecting() -> Subscriptions {
        Subscriptions::default()
    }

    /// Wakes the propagator when `x` has `event` (or a stronger one).
    #[inline]
    pub fn on(&mut self, x: VarId, event: Event) {
        // A subscription to an event is woken by it and by every stronger
        // one (Changed by all three, Fixed by Fixed alone). A variable the
        // model lacks has no buckets (posting checked the variables, so
        // only a propagator that subscribes differently the second time
        // gets here): it can never change, so nothing is lost.
        let (word, bit) = (self.word, self.bit);
        if self.words == 1 {
            // One word a bucket (the common case): the buckets are adjacent.
            let (changed, bounds) = woken_by(event, bit);
            let at = self.base + 3 * x.index();
            if let Some([c, b, f]) = self.masks.get_mut(at..at + 3) {
                (*c, *b, *f) = (*c | changed, *b | bounds, *f | bit);
            }
            return;
        }
        if self.words == 0 {
            self.list.push((x, event, self.owner));
            return;
        }
        for b in 3 * x.index() + event as usize..3 * x.index() + 3 {
            if let Some(m) = self.masks.get_mut(self.base + b * self.words + word) {
                *m |= bit;
            }
        }
    }

    /// [`Subscriptions::on`] for each variable of the group at `group` in
    /// turn, in one call (a group constraint's subscriptions, which an
    /// engine build makes for every group).
    #[inline(always)]
    pub(crate) fn on_group(&mut self, group: Group, event: Event) {
        if self.words != 1 {
            for k in group.range() {
                let x = self.groups[k];
                self.on(x, event);
            }
            return;
        }
        // One word a bucket: as in `on`, the buckets of `x` the event wakes
        // are adjacent, and a variable the model lacks has none.
        let bit = self.bit;
        let (changed, bounds) = woken_by(event, bit);
        let masks = self.masks.get_mut(self.base..).unwrap_or_default();
        for &x in group.of(&self.groups) {
            let at = 3 * x.index();
            if let Some([c, b, f]) = masks.get_mut(at..at + 3) {
                (*c, *b, *f) = (*c | changed, *b | bounds, *f | bit);
            }
        }
    }

    /// Makes the group variables a copy of `vars` (a model's, see
    /// [`Posted`](crate::model::Posted)), keeping the storage: a group
    /// propagator keeps the place its group has there.
    #[inline(always)]
    pub(crate) fn copy_groups(&mut self, vars: &[VarId]) {
        make_room(&mut self.groups, vars.len());
        self.groups.extend_from_slice(vars);
    }

    /// The variables of every group (see [`Subscriptions::copy_groups`]).
    #[inline(always)]
    pub(crate) fn groups(&self) -> &Vec<VarId> {
        &self.groups
    }

    /// Forgets every subscription, keeping the storage, and collects the
    /// next ones into the list.
    pub(crate) fn clear(&mut self) {
        self.list.clear();
        self.words = 0;
    }

    /// Writes the next subscriptions straight into the subscriber masks
    /// `buffer[base..]` (all of it, zero or holding earlier subscriptions),
    /// `words` words a bucket. Takes `buffer` until
    /// [`Subscriptions::take_masks`] hands it back.
    pub(crate) fn write_masks(&mut self, buffer: &mut Vec<u64>, base: usize, words: usize) {
        self.clear();
        self.words = words;
        self.base = base;
        std::mem::swap(&mut self.masks, buffer);
    }

    /// Hands back the buffer [`Subscriptions::write_masks`] took, with the
    /// subscriptions since written into it.
    pub(crate) fn take_masks(&mut self, buffer: &mut Vec<u64>) {
        std::mem::swap(&mut self.masks, buffer);
        self.words = 0;
    }

    pub(crate) fn reserve(&mut self, additional: usize) {
        self.list.reserve(additional);
    }

    /// The number of subscriptions so far.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Subscriptions from now on belong to propagator `p`.
    pub(crate) fn begin(&mut self, p: u32) {
        self.owner = p;
        (self.word, self.bit) = (p as usize / 64, 1 << (p % 64));
    }

    /// Every subscription so far: variable, event, propagator.
    pub(crate) fn all(&self) -> &[(VarId, Event, u32)] {
        &self.list
    }

    /// Takes the subscriptions made so far, as `(variable, event)`.
    pub(crate) fn take(&mut self) -> impl Iterator<Item = (VarId, Event)> + '_ {
        self.list.drain(..).map(|(x, e, _)| (x, e))
    }
}

/// What a subscription to `event` adds to a variable's `Changed` and
/// `Bounds` buckets, given the propagator's `bit` in its word (its `Fixed`
/// bucket always gets `bit`): the subscription is woken by its event and by
/// every stronger one, so a bucket gets the bit if its event is at least as
/// strong as `event`, else nothing.
#[inline(always)]
fn woken_by(event: Event, bit: u64) -> (u64, u64) {
    let changed = if event == Event::Changed { bit } else { 0 };
    let bounds = if event == Event::Fixed { 0 } else { bit };
    (changed, bounds)
}

/// A propagator's only door to the domains: read them, narrow them.
///
/// Every narrowing goes through [`Ctx::restrict`] (the other methods wrap
/// it), which schedules the subscribers of the changed variable and tells
/// the trace, so a propagator never mentions either.
pub struct Ctx<'c> {
    inner: &'c mut dyn DynNarrow,
}

impl fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ctx").finish_non_exhaustive()
    }
}

impl<'c> Ctx<'c> {
    /// The handle on a run's narrowing context.
    #[inline(always)]
    pub(crate) fn new(inner: &'c mut dyn DynNarrow) -> Ctx<'c> {
        Ctx { inner }
    }

    /// The current domain of `x`.
    ///
    /// # Panics
    ///
    /// If `x` is not a variable of the model (posting a propagator checks
    /// the variables it subscribes to), in every build, with the message
    /// "variable #i belongs to another model".
    #[inline]
    pub fn dom(&self, x: VarId) -> Domain {
        self.assert_own(x);
        self.inner.dom(x)
    }

    /// The current domains of `xs`, as bits ([`Domain::bits`]), into
    /// `out` (its first `xs.len()` words; `out` may not be shorter): one
    /// call for many variables, where [`Ctx::dom`] is one a variable.
    ///
    /// # Panics
    ///
    /// If `out` is shorter than `xs`, or as [`Ctx::dom`] if one of `xs` is
    /// not a variable of the model.
    #[inline]
    pub fn doms_into(&self, xs: &[VarId], out: &mut [u64]) {
        assert!(out.len() >= xs.len(), "room for every domain read");
        if let Err(x) = self.inner.doms_into(xs, out) {
            panic!("variable #{} belongs to another model", x.index());
        }
    }

    /// Panics unless `x` is a variable of the model being propagated.
    fn assert_own(&self, x: VarId) {
        assert!(
            self.inner.owns(x),
            "variable #{} belongs to another model",
            x.index()
        );
    }

    /// The bounds of `x`; a conflict if its domain is empty (which cannot
    /// happen between propagator runs, but keeps callers free of `unwrap`).
    ///
    /// # Errors
    ///
    /// [`Conflict`] on an empty domain.
    #[inline]
    pub fn bounds(&self, x: VarId) -> Result<(u8, u8), Conflict> {
        let d = self.dom(x);
        match (d.min(), d.max()) {
            (Some(lo), Some(hi)) => Ok((lo, hi)),
            _ => Err(Conflict),
        }
    }

    /// This propagator's state words (as many as
    /// [`Propagator::state_words`] asked for, zero at the root). They are
    /// saved and restored with the domains.
    #[inline]
    pub fn state(&mut self) -> &mut [u64] {
        self.inner.state()
    }

    /// Narrows `x` to the values also in `keep`. Returns whether the domain
    /// changed.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if no value would be left; the domain is then unchanged.
    ///
    /// # Panics
    ///
    /// As [`Ctx::dom`], if `x` is not a variable of the model.
    #[inline]
    pub fn restrict(&mut self, x: VarId, keep: Domain) -> Result<bool, Conflict> {
        self.assert_own(x);
        self.inner.restrict(x, keep)
    }

    /// Fixes `x` to `v`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if `v` is not in the domain.
    #[inline]
    pub fn fix(&mut self, x: VarId, v: u8) -> Result<bool, Conflict> {
        if v > Domain::MAX_VALUE {
            return Err(Conflict);
        }
        self.restrict(x, Domain::singleton(v))
    }

    /// Removes `v` from `x` (no-op for values above 63).
    ///
    /// # Errors
    ///
    /// [`Conflict`] if `v` was the last value.
    #[inline]
    pub fn remove(&mut self, x: VarId, v: u32) -> Result<bool, Conflict> {
        self.restrict(x, Domain::FULL.remove(v))
    }

    /// Removes the values below `v` from `x`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if no value `>= v` is left.
    #[inline]
    pub fn at_least(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        self.restrict(x, Domain::FULL.at_least(v))
    }

    /// Removes the values above `v` from `x`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if no value `<= v` is left.
    #[inline]
    pub fn at_most(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        self.restrict(x, Domain::FULL.at_most(v))
    }
}

/// A propagator: the code that enforces one constraint.
///
/// See the [module documentation](self) for the contract and an example.
/// Post one with [`Model::post_propagator`](crate::Model::post_propagator).
pub trait Propagator: fmt::Debug {
    /// A short name, shown in traces for unlabelled constraints.
    fn name(&self) -> &'static str;

    /// Lists the variables to wake on, with the event on each. Called once,
    /// when the engine is built. Every variable the propagator reads must be
    /// listed, or it may miss the change that makes it fail.
    fn subscribe(&self, subs: &mut Subscriptions);

    /// The cost class; cheaper classes run first.
    fn priority(&self) -> Priority {
        Priority::Linear
    }

    /// How many `u64` words of state the propagator keeps (see
    /// [`Ctx::state`]); zero by default.
    fn state_words(&self) -> usize {
        0
    }

    /// Narrows domains through `ctx`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] when no solution is left.
    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation;

    /// Whether the constraint holds for a full assignment; `None` when the
    /// propagator cannot say. [`Model::check`](crate::Model::check) uses it
    /// to verify solutions independently of propagation.
    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        let _ = value;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{Event, Subscriptions};
    use crate::check::SplitMix64;
    use crate::ids::{Group, VarId};

    #[test]
    fn a_group_subscribes_in_masks_of_any_width_as_its_variables_one_by_one() {
        // Queues of one to four words: propagators spread over them
        // subscribe random groups of 1 to 12 of 40 variables (some
        // repeated) to each event, into masks after a header. Writing a
        // group at once (`on_group`) must leave the masks that subscribing
        // its variables one by one (`on`) leaves.
        let mut rng = SplitMix64::new(5);
        for _ in 0..400 {
            let words = 1 + rng.below(4);
            let (vars, base) = (40, rng.below(5));
            let len = base + 3 * vars * words;
            let mut groups = Vec::new();
            let mut subscriptions = Vec::new();
            for _ in 0..1 + rng.below(6) {
                let n = 1 + rng.below(12);
                let start = groups.len() as u32;
                groups.extend((0..n).map(|_| VarId::new(0, rng.below(vars) as u32)));
                let event = [Event::Changed, Event::Bounds, Event::Fixed][rng.below(3)];
                let group = Group {
                    start,
                    len: n as u32,
                };
                subscriptions.push((rng.below(64 * words) as u32, group, event));
            }
            let write = |by_group: bool| {
                let mut subs = Subscriptions::default();
                subs.copy_groups(&groups);
                let mut buffer = vec![0u64; len];
                subs.write_masks(&mut buffer, base, words);
                for &(p, group, event) in &subscriptions {
                    subs.begin(p);
                    if by_group {
                        subs.on_group(group, event);
                    } else {
                        for &x in group.of(&groups) {
                            subs.on(x, event);
                        }
                    }
                }
                subs.take_masks(&mut buffer);
                buffer
            };
            let by_group = write(true);
            assert_eq!(by_group, write(false), "{words} words, {subscriptions:?}");
            assert!(by_group.iter().any(|&w| w != 0), "something subscribed");
        }
    }
}
