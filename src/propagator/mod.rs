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

use std::cell::Cell;
use std::fmt;

use crate::domain::{Domain, ones};
use crate::ids::{Group, VarId};

mod narrow;

pub(crate) use narrow::{
    Block, MASK_WORDS, Narrow, PruneSink, Quiet, QuietBlock, Wakeups, bounds_moved, fixed_bits,
    fixed_words, has_repeats, in_order_from,
};
use narrow::{bits_from, bits_from_words, narrow, set_bits_from};

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
/// of a cheaper class before any of a dearer one.
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
    /// variables into storage kept across builds instead of sharing the
    /// model's list (an `Arc` clone a propagator and its drop, two locked
    /// instructions, about 10 ns, where the copy of a zebra row costs a
    /// few instructions). Kept here, beside the subscriptions, because a
    /// group propagator subscribes through it
    /// ([`Subscriptions::on_group`]); the engine lends it to every run's
    /// context ([`Ctx::group`]). Refilled by every build, storage kept.
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
        self.groups.clear();
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
/// it), which schedules the subscribers of the changed variable and tells the
/// trace, so a propagator never mentions either. (The built-in propagators
/// of one or two variables, both all-differents and the search's decisions
/// narrow through an untraced twin of it, `Ctx::quiet`, when no trace
/// records and the queue is one word.)
pub struct Ctx<'a> {
    /// The current domains, as raw bits, indexed by variable.
    doms: &'a mut [u64],
    /// Bit `i` set: variable `i` is fixed (its domain has one value). Kept
    /// by [`Ctx::restrict`], so a propagator finds its fixed variables
    /// without reading their domains. One word longer than the variables
    /// need, the last always zero (see [`fixed_words`]).
    fixed: &'a mut [u64],
    /// Every propagator's state words; the running one's are `state[run]`.
    state: &'a mut [u64],
    /// Where the running propagator's state words are in `state`.
    run: (u32, u32),
    /// The queue: one bit a propagator id. Shared cells, so that the
    /// engine's fixpoint loop keeps its own view of the queue word next to
    /// the context's and reads it after each run without a bounds check.
    queue: &'a [Cell<u64>],
    /// The queue's only word when a run may take the quiet door (no trace
    /// records and the queue is one word, see [`Ctx::quiet`]): worked out
    /// once for every run the context serves.
    quiet: Option<&'a Cell<u64>>,
    /// The queue's first word: `quiet`'s word, unchecked, for [`Quiet`]
    /// (which exists only while `quiet` is `Some`) and so for the runners
    /// of the propagators of one or two variables, which the engine calls
    /// only when `quiet` is `Some` (see [`AnyPropagator::runner`](crate::propagators::AnyPropagator::runner)).
    first_word: &'a Cell<u64>,
    /// The variables of every group propagator, each group's at its
    /// [`Group`] (see [`Subscriptions::copy_groups`]); empty until
    /// [`Ctx::with_groups`] lends them. The list, not a slice of it: a
    /// context is made at every search node, and one word to copy, not
    /// two, is one instruction a node fewer (measured: a slice cost
    /// 10-queens 2 instructions a node, 0.2%); the group propagators pay
    /// the indirection once a run.
    groups: &'a Vec<VarId>,
    wakeups: Wakeups<'a>,
    sink: Option<&'a mut dyn PruneSink>,
}

impl fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ctx")
            .field("vars", &self.doms.len())
            .finish_non_exhaustive()
    }
}

/// The group variables of a context that lends none.
static NO_GROUPS: Vec<VarId> = Vec::new();

impl<'a> Ctx<'a> {
    /// A context on these domains, fixed-variable bitset, propagator state
    /// words and queue (at least one word), reporting every narrowing to
    /// `sink` if there is one.
    ///
    /// # Panics
    ///
    /// If `queue` is empty.
    pub(crate) fn new(
        doms: &'a mut [u64],
        fixed: &'a mut [u64],
        state: &'a mut [u64],
        queue: &'a mut [u64],
        wakeups: Wakeups<'a>,
        sink: Option<&'a mut dyn PruneSink>,
    ) -> Ctx<'a> {
        let queue = Cell::from_mut(queue).as_slice_of_cells();
        let first_word = queue.first().expect("the queue has a word");
        Ctx::build(doms, fixed, state, queue, first_word, wakeups, sink)
    }

    /// [`Ctx::new`] for an untraced run, whose queue may be empty (a model
    /// without propagators): then `spare` stands in for its first word,
    /// which nothing reads (no runner runs, and the queue is not one word,
    /// so the quiet door is shut).
    #[inline(always)]
    pub(crate) fn with_spare(
        doms: &'a mut [u64],
        fixed: &'a mut [u64],
        state: &'a mut [u64],
        queue: &'a mut [u64],
        spare: &'a Cell<u64>,
        wakeups: Wakeups<'a>,
    ) -> Ctx<'a> {
        let queue = Cell::from_mut(queue).as_slice_of_cells();
        let first_word = queue.first().unwrap_or(spare);
        Ctx::build(doms, fixed, state, queue, first_word, wakeups, None)
    }

    /// The context of [`Ctx::new`] and [`Ctx::with_spare`].
    #[inline(always)]
    fn build(
        doms: &'a mut [u64],
        fixed: &'a mut [u64],
        state: &'a mut [u64],
        queue: &'a [Cell<u64>],
        first_word: &'a Cell<u64>,
        wakeups: Wakeups<'a>,
        sink: Option<&'a mut dyn PruneSink>,
    ) -> Ctx<'a> {
        let run = (0, state.len() as u32);
        let quiet = match (&sink, queue) {
            (None, [word]) => Some(word),
            _ => None,
        };
        Ctx {
            doms,
            fixed,
            state,
            run,
            queue,
            quiet,
            first_word,
            groups: &NO_GROUPS,
            wakeups,
            sink,
        }
    }

    /// This context, lending the group propagators their variables,
    /// `groups` (the engine's list, see [`Subscriptions::copy_groups`]).
    #[inline(always)]
    pub(crate) fn with_groups(mut self, groups: &'a Vec<VarId>) -> Ctx<'a> {
        self.groups = groups;
        self
    }

    /// The variables of the group at `group`: as long-lived as the
    /// context's borrow of the list, so a propagator holds them while it
    /// narrows domains through the context.
    #[inline(always)]
    pub(crate) fn group(&self, group: Group) -> &'a [VarId] {
        group.of(self.groups)
    }

    /// Makes `state[words.0..words.1]` of the state handed to
    /// [`Ctx::new`] the running propagator's own: one context serves a
    /// whole fixpoint loop.
    #[inline(always)]
    pub(crate) fn run_as(&mut self, words: (u32, u32)) {
        self.run = words;
    }

    /// The queue, for the engine's fixpoint loop: as long-lived as the
    /// context's borrow of it, so the loop may hold it across runs.
    #[inline(always)]
    pub(crate) fn queue(&self) -> &'a [Cell<u64>] {
        self.queue
    }

    /// The current domain of `x`.
    ///
    /// # Panics
    ///
    /// If `x` is not a variable of the model (posting a propagator checks
    /// the variables it subscribes to).
    #[inline]
    pub fn dom(&self, x: VarId) -> Domain {
        Domain::from_bits(self.doms[x.index()])
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
        &mut self.state[self.run.0 as usize..self.run.1 as usize]
    }

    /// The first of this propagator's state words ([`Ctx::state`]`()[0]`
    /// with one bounds check, not three), for a propagator that asked for
    /// at least one.
    #[inline(always)]
    pub(crate) fn first_state_word(&mut self) -> &mut u64 {
        debug_assert!(self.run.0 < self.run.1, "the propagator has state words");
        &mut self.state[self.run.0 as usize]
    }

    /// Narrows `x` to the values also in `keep`. Returns whether the domain
    /// changed.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if no value would be left; the domain is then unchanged.
    #[inline(always)]
    pub fn restrict(&mut self, x: VarId, keep: Domain) -> Result<bool, Conflict> {
        let i = x.index();
        let Some((old, new)) = narrow(self.doms, i, keep)? else {
            return Ok(false);
        };
        self.wake(i, old, new);
        if self.sink.is_some() {
            self.report(x, old, new);
        }
        Ok(true)
    }

    /// The quiet door to the domains, when this run may use it: no trace
    /// is recording and the queue is one word.
    #[inline(always)]
    pub(crate) fn quiet(&mut self) -> Option<Quiet<'_, 'a>> {
        if self.quiet.is_some() {
            Some(Quiet { ctx: self })
        } else {
            None
        }
    }

    /// The quiet door, for a run the caller knows may take it (the engine's
    /// one-word, untraced fixpoint loop): without the test of
    /// [`Ctx::quiet`].
    #[inline(always)]
    pub(crate) fn quiet_known(&mut self) -> Quiet<'_, 'a> {
        debug_assert!(
            self.quiet.is_some(),
            "only runs that may take the quiet door"
        );
        Quiet { ctx: self }
    }

    /// [`Ctx::quiet_block`] for a run the caller knows may take the quiet
    /// door (the engine's one-word, untraced fixpoint loop), without the
    /// test (as [`Ctx::quiet_known`]).
    #[inline(always)]
    pub(crate) fn quiet_block_known(&mut self, first: usize) -> QuietBlock<'_, 'a> {
        debug_assert!(
            self.quiet.is_some(),
            "only runs that may take the quiet door"
        );
        QuietBlock { ctx: self, first }
    }

    /// The domains of the variables from `first` on behind the quiet
    /// door, when this run may take it (as [`Ctx::quiet`]): a propagator
    /// that knows its variables by their place in the block narrows them
    /// without looking them up.
    #[inline(always)]
    pub(crate) fn quiet_block(&mut self, first: usize) -> Option<QuietBlock<'_, 'a>> {
        if self.quiet.is_some() {
            Some(QuietBlock { ctx: self, first })
        } else {
            None
        }
    }

    /// Tells the trace about a narrowing; kept out of line so the common,
    /// untraced path stays small.
    #[cold]
    #[inline(never)]
    fn report(&mut self, x: VarId, old: u64, new: u64) {
        if let Some(sink) = self.sink.as_deref_mut() {
            sink.pruned(x, Domain::from_bits(old), Domain::from_bits(new));
        }
    }

    /// Schedules the subscribers of variable `i` for the event `old -> new`,
    /// and marks `i` fixed if `new` has one value.
    #[inline(always)]
    fn wake(&mut self, i: usize, old: u64, new: u64) {
        self.wakeups.wake(self.queue, self.fixed, i, old, new);
    }

    /// Whether narrowings are reported one by one (a trace is recording):
    /// then a propagator must narrow through [`Ctx::restrict`], in its
    /// documented order, and not by [`Ctx::block`].
    #[inline(always)]
    pub(crate) fn observed(&self) -> bool {
        self.sink.is_some()
    }

    /// The domains of variables `first..first + n` (`n <= 64`), to narrow
    /// in place without waking anyone, with which of them are fixed and
    /// which have subscribers to narrowings that leave them open; the
    /// caller then hands every variable it narrowed that someone listens
    /// to to [`Ctx::wake_block`]. Only while not [`Ctx::observed`].
    #[inline(always)]
    pub(crate) fn block(&mut self, first: usize, n: usize) -> Block<'_> {
        debug_assert!(!self.observed(), "a trace sees every narrowing");
        let within = u64::MAX >> (64 - n);
        Block {
            fixed: bits_from(self.fixed, first) & within,
            weak: bits_from(self.wakeups.weak, first) & within,
            doms: &mut self.doms[first..first + n],
        }
    }

    /// The current domains of variables `first..first + n`, as raw bits.
    #[inline(always)]
    pub(crate) fn block_ref(&self, first: usize, n: usize) -> impl Iterator<Item = u64> + '_ {
        self.doms[first..first + n].iter().copied()
    }

    /// Wakes the subscribers of variables `first + k` for each bit `k` of
    /// `wake`, as [`Ctx::restrict`] would have for all the narrowings
    /// [`Ctx::block`] made (`wake` holds every narrowed variable the
    /// block's `weak` bits have, and every one fixed): bit `k` of `moved`
    /// says whether a bound of variable `first + k` moved, bit `k` of
    /// `fixed` whether it is now fixed (`fixed` within `wake`). Several
    /// narrowings of one variable wake the same propagators as one: the
    /// queue is a set, a bound that moved in one step has moved overall,
    /// and only the last step can fix.
    #[inline(always)]
    pub(crate) fn wake_block(&mut self, first: usize, wake: u64, moved: u64, fixed: u64) {
        // Most runs fix nothing and wake no one.
        if wake == 0 {
            return;
        }
        set_bits_from(self.fixed, first, fixed);
        // The event of variable `first + k` (as in `mark_event`): 2 fixed,
        // else 1 if a bound moved, else 0.
        let event = |k: usize| ((fixed >> k & 1) << 1 | (moved & !fixed) >> k & 1) as usize;
        // Untraced (as every block is), so quiet just when one queue word.
        if let Some(queue) = self.quiet {
            // One queue word: one OR a variable, from its masks.
            let masks = &self.wakeups.masks[3 * first..];
            for k in ones(wake) {
                queue.set(queue.get() | masks[3 * k + event(k)]);
            }
            return;
        }
        for k in ones(wake) {
            self.wakeups
                .queue_event_words(self.queue, first + k, event(k));
        }
    }

    /// The fixed variables among `first..first + n` (`n <= 64`): bit `k`
    /// set when variable `first + k` is fixed.
    #[inline(always)]
    pub(crate) fn fixed_range(&self, first: usize, n: usize) -> u64 {
        // Without `bits_from`'s one-word test, which cost more than it
        // saved (classic zebra, 42 instructions a solve) when the domain
        // all-different's untraced runs read their fixed positions here.
        // They now read them through `QuietBlock::fixed`; this serves the
        // runs that cannot take the quiet door and the value
        // all-different's scans.
        bits_from_words(self.fixed, first) & (u64::MAX >> (64 - n))
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
