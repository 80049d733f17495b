//! The fixpoint loop: run queued propagators until none is queued or one
//! fails.
//!
//! One loop serves every run. It is generic over the narrowing context
//! ([`Untraced`] or [`Traced`], picked by the observer's type, so an
//! untraced search compiles with no trace call in it) and over the queue's
//! width ([`OneWord`] for at most 64 propagators, [`Words`] beyond).

use std::cell::Cell;

use super::Slot;
use crate::domain::Domain;
use crate::ids::{ConstraintId, Tags, VarId};
use crate::observer::Observer;
use crate::propagator::{
    Narrow, OneWord, Propagation, PruneSink, RunAs, Status, Traced, Untraced, Wakeups, Words,
};

/// The parts of an [`Engine`](super::Engine) that propagating touches at
/// every node ([`Engine::running`](super::Engine::running)): the queue,
/// the wake-ups and the propagators, borrowed once for a run of nodes. The
/// state they work on is handed to each call: the engine's own, or a copy
/// of it (a search state, [`Engine::state_len`](super::Engine::state_len)
/// words).
pub(crate) struct Running<'e> {
    /// The number of variables: a state's first words are their domains.
    pub(super) vars: usize,
    /// The words of the fixed-variable bitset, after the domains.
    pub(super) fixed_words: usize,
    /// The model's tags, for making [`VarId`]s.
    pub(super) tags: &'e Tags,
    pub(super) queue: &'e mut [u64],
    /// The enabled bitset when a disabled propagator may be queued (wake
    /// lists), to drop it when popped; `None` with masks.
    pub(super) enabled: Option<&'e [u64]>,
    pub(super) wakeups: Wakeups<'e>,
    pub(super) props: &'e [Slot],
    /// The variables of every group propagator, lent to the contexts.
    pub(super) groups: &'e [VarId],
    /// The engine's count of propagator runs.
    pub(super) propagations: &'e mut u64,
}

impl Running<'_> {
    /// The domains in `state`, as bits.
    #[inline(always)]
    pub(crate) fn domain_bits<'s>(&self, state: &'s [u64]) -> &'s [u64] {
        &state[..self.vars]
    }

    /// The fixed-variable bitset in `state`: bit `i` set when variable `i`
    /// has one value.
    #[inline(always)]
    pub(crate) fn fixed_bits<'s>(&self, state: &'s [u64]) -> &'s [u64] {
        &state[self.vars..self.vars + self.fixed_words]
    }

    /// The variable with declaration index `i` (below the variables).
    #[inline(always)]
    pub(crate) fn var_at(&self, i: usize) -> VarId {
        debug_assert!(i < self.vars, "variable index out of range");
        self.tags.var(i as u32)
    }

    /// Narrows `x` to the values also in `keep` in `state`, queuing its
    /// subscribers. Returns false, leaving the domain as it was, if no value
    /// would be left.
    #[inline(always)]
    pub(crate) fn restrict(&mut self, state: &mut [u64], x: VarId, keep: Domain) -> bool {
        let (doms, rest) = state.split_at_mut(self.vars);
        let (fixed, props) = rest.split_at_mut(self.fixed_words);
        let queue = Words(Cell::from_mut(&mut *self.queue).as_slice_of_cells());
        let mut ctx = Untraced::new(
            doms,
            fixed,
            props,
            self.groups,
            self.tags,
            self.wakeups,
            queue,
        );
        Narrow::restrict(&mut ctx, x, keep).unwrap_or(false)
    }

    /// Narrows `x` to the values also in `keep` in `state` when `decision`
    /// is `Some((x, keep))` (a narrowing that would leave no value changes
    /// nothing), then runs the queued propagators to a fixpoint in `state`,
    /// reporting to `observer`. The search's decisions go in here, so that
    /// they narrow through the context the loop uses.
    ///
    /// Postcondition: the queue is empty, also after a conflict.
    ///
    /// # Errors
    ///
    /// The constraint whose propagator found the conflict.
    #[inline(always)]
    pub(crate) fn propagate_after<O: Observer>(
        &mut self,
        state: &mut [u64],
        decision: Option<(VarId, Domain)>,
        observer: &mut O,
    ) -> Result<(), ConstraintId> {
        let (doms, rest) = state.split_at_mut(self.vars);
        let (fixed, props) = rest.split_at_mut(self.fixed_words);
        let queue = Cell::from_mut(&mut *self.queue).as_slice_of_cells();
        let (wakeups, groups, tags) = (self.wakeups, self.groups, self.tags);
        let mut runs = 0;
        let result = if O::PROPAGATION {
            let mut sink = Forward { observer };
            let inner = Untraced::new(doms, fixed, props, groups, tags, wakeups, Words(queue));
            let mut ctx = Traced::new(inner, &mut sink);
            let pop = Listed {
                queue,
                enabled: self.enabled,
            };
            fixpoint(&mut ctx, pop, decision, self.props, &mut runs)
        } else if let [word] = queue {
            let mut ctx = Untraced::new(doms, fixed, props, groups, tags, wakeups, OneWord(word));
            fixpoint(&mut ctx, OneWord(word), decision, self.props, &mut runs)
        } else {
            let mut ctx = Untraced::new(doms, fixed, props, groups, tags, wakeups, Words(queue));
            let pop = Listed {
                queue,
                enabled: self.enabled,
            };
            fixpoint(&mut ctx, pop, decision, self.props, &mut runs)
        };
        *self.propagations += runs;
        if let Err(by) = result {
            observer.conflict(by);
        }
        result
    }
}

/// The queue as the fixpoint loop sees it: a bitset of propagators, the
/// lowest-numbered popped first.
trait Pop: Copy {
    /// Takes the lowest queued propagator off the queue; a number past
    /// every propagator when none is queued.
    fn pop(self) -> usize;

    /// Takes `p` off the queue again (its own run queued it).
    fn unqueue(self, p: usize);

    /// Empties the queue.
    fn clear(self);
}

impl Pop for OneWord<'_> {
    #[inline(always)]
    fn pop(self) -> usize {
        // An empty word pops 64, past every propagator of a one-word queue.
        let queued = self.0.get();
        self.0.set(queued & queued.wrapping_sub(1));
        queued.trailing_zeros() as usize
    }

    #[inline(always)]
    fn unqueue(self, p: usize) {
        self.0.set(self.0.get() & !(1 << p));
    }

    #[inline(always)]
    fn clear(self) {
        self.0.set(0);
    }
}

/// A queue of several words; with wake lists (past the subscriber masks'
/// words) a disabled propagator may be woken, and is dropped when popped.
#[derive(Clone, Copy)]
struct Listed<'q> {
    queue: &'q [Cell<u64>],
    /// The enabled propagators, when a disabled one may be queued.
    enabled: Option<&'q [u64]>,
}

impl Pop for Listed<'_> {
    #[inline(always)]
    fn pop(self) -> usize {
        loop {
            let Some(word) = self.queue.iter().position(|w| w.get() != 0) else {
                return usize::MAX;
            };
            let bits = self.queue[word].get();
            let bit = bits.trailing_zeros() as usize;
            self.queue[word].set(bits & (bits - 1));
            if self.enabled.is_none_or(|on| on[word] >> bit & 1 == 1) {
                return 64 * word + bit;
            }
        }
    }

    #[inline(always)]
    fn unqueue(self, p: usize) {
        let word = &self.queue[p / 64];
        word.set(word.get() & !(1 << (p % 64)));
    }

    #[inline(always)]
    fn clear(self) {
        self.queue.iter().for_each(|w| w.set(0));
    }
}

/// The loop: narrows by `decision`, then runs the lowest queued
/// propagator of `props` until none is queued or one fails; counts the
/// runs in `runs`.
///
/// A propagator that reports [`Status::Fixpoint`] is taken off the queue
/// again: whatever queued it since it was popped was its own narrowing.
#[inline(always)]
fn fixpoint<N: RunAs + RunSlot>(
    ctx: &mut N,
    queue: impl Pop,
    decision: Option<(VarId, Domain)>,
    props: &[Slot],
    runs: &mut u64,
) -> Result<(), ConstraintId> {
    if let Some((x, keep)) = decision {
        ctx.decide(x, keep);
    }
    loop {
        let p = queue.pop();
        let Some(slot) = props.get(p) else {
            return Ok(());
        };
        *runs += 1;
        ctx.run_as(slot.words, slot.origin);
        match ctx.run_slot(slot) {
            Ok(Status::Fixpoint) => queue.unqueue(p),
            Ok(Status::Changed) => {}
            Err(_) => {
                queue.clear();
                return Err(slot.origin);
            }
        }
        ctx.ran();
    }
}

/// How a context runs a slot's propagator: the untraced one-word context
/// calls the runner the slot keeps ([`Runner`](crate::propagators::Runner)), with no
/// match on the kind; the others dispatch on the kind.
trait RunSlot {
    /// Runs `slot`'s propagator in this context.
    fn run_slot(&mut self, slot: &Slot) -> Propagation;
}

impl<'a> RunSlot for Untraced<'a, OneWord<'a>> {
    #[inline(always)]
    fn run_slot(&mut self, slot: &Slot) -> Propagation {
        (slot.run)(&slot.prop, self)
    }
}

impl<'a> RunSlot for Untraced<'a, Words<'a>> {
    #[inline(always)]
    fn run_slot(&mut self, slot: &Slot) -> Propagation {
        slot.prop.run(self)
    }
}

impl RunSlot for Traced<'_, '_> {
    #[inline(always)]
    fn run_slot(&mut self, slot: &Slot) -> Propagation {
        slot.prop.run(self)
    }
}

/// Hands a traced run's prunings and runs to the observer.
struct Forward<'o, O> {
    observer: &'o mut O,
}

impl<O: Observer> PruneSink for Forward<'_, O> {
    fn pruned(&mut self, by: ConstraintId, x: VarId, before: Domain, after: Domain) {
        self.observer.pruned(by, x, before, after);
    }

    fn propagated(&mut self, by: ConstraintId) {
        self.observer.propagated(by);
    }
}
