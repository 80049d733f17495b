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
    Lists, Narrow, OneWord, Propagation, PruneSink, RunAs, Status, Traced, Untraced, Wakeups, Words,
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
    /// As many words, when the costly class runs by rounds (else none):
    /// the queued propagators woken by a variable's being fixed since they
    /// last ran (see [`Words`]).
    pub(super) fixed_woken: &'e mut [u64],
    /// The enabled bitset when a disabled propagator may be queued (wake
    /// lists), to drop it when popped; `None` with masks.
    pub(super) enabled: Option<&'e [u64]>,
    pub(super) wakeups: Wakeups<'e>,
    pub(super) props: &'e [Slot],
    /// The first propagator of the most costly class when that class runs
    /// by rounds (see [`Pop`]), else the number of propagators.
    pub(super) costly: usize,
    /// The model's lists that propagators keep places in, lent to the
    /// contexts.
    pub(super) lists: Lists<'e>,
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
        let queue = Words::<true> {
            queue: Cell::from_mut(&mut *self.queue).as_slice_of_cells(),
            fixed_woken: Cell::from_mut(&mut *self.fixed_woken).as_slice_of_cells(),
        };
        let mut ctx = Untraced::new(
            doms,
            fixed,
            props,
            self.lists,
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
        let (wakeups, lists, tags) = (self.wakeups, self.lists, self.tags);
        let mut runs = 0;
        let listed = Listed {
            queue,
            enabled: self.enabled,
        };
        let fixed_woken = Cell::from_mut(&mut *self.fixed_woken).as_slice_of_cells();
        // Rounds in the most costly class when the engine runs it so (see
        // `Pop`).
        let rounds = (self.costly < self.props.len()).then_some(Rounds {
            listed,
            fixed_woken,
            costly: self.costly,
        });
        let slots = self.props;
        let result = if O::PROPAGATION {
            let words = Words::<true> { queue, fixed_woken };
            let mut sink = Forward { observer };
            let inner = Untraced::new(doms, fixed, props, lists, tags, wakeups, words);
            let mut ctx = Traced::new(inner, &mut sink);
            match rounds {
                Some(rounds) => fixpoint(&mut ctx, rounds, decision, slots, &mut runs),
                None => fixpoint(&mut ctx, listed, decision, slots, &mut runs),
            }
        } else if let [word] = queue {
            let mut ctx = Untraced::new(doms, fixed, props, lists, tags, wakeups, OneWord(word));
            fixpoint(&mut ctx, OneWord(word), decision, slots, &mut runs)
        } else if let Some(rounds) = rounds {
            let words = Words::<true> { queue, fixed_woken };
            let mut ctx = Untraced::new(doms, fixed, props, lists, tags, wakeups, words);
            fixpoint(&mut ctx, rounds, decision, slots, &mut runs)
        } else {
            let words = Words::<false> {
                queue,
                fixed_woken: &[],
            };
            let mut ctx = Untraced::new(doms, fixed, props, lists, tags, wakeups, words);
            fixpoint(&mut ctx, listed, decision, slots, &mut runs)
        };
        *self.propagations += runs;
        if let Err(by) = result {
            observer.conflict(by);
        }
        result
    }
}

/// The queue as the fixpoint loop sees it: a bitset of propagators in
/// queue order (by class, then posting order).
///
/// For at most 64 propagators (a one-word queue), or a most costly class
/// with a custom propagator in it, the next is the lowest queued. Beyond,
/// the next is the lowest queued of the cheaper classes;
/// when none is, it is taken in the most costly class by a round: the
/// lowest queued after the costly propagator popped last, or if none the
/// lowest queued, as a first-in first-out queue would run them, so that a
/// costly propagator woken again and again waits for the others woken (a
/// sudoku's 27 units wake each other, and lowest first runs the first
/// units again after each later one). Those that a variable's being fixed
/// woke since they last ran go first, by a round of their own: a fixed
/// variable takes its value from the rest of a unit, where a value removed
/// alone most often prunes nothing, so a unit woken by removals waits for
/// the fixed variables that may come and runs once for both (fewer runs
/// on sudokus that propagation solves). A one-word queue keeps to lowest
/// first: a round costs a few instructions a run, which small models (the
/// zebras) do not earn back.
trait Pop: Copy {
    /// Where a round stands: what [`Pop::pop`] needs besides the queue.
    type Round: Copy;

    /// Where a round stands before any propagator ran.
    fn round(self) -> Self::Round;

    /// Takes the next propagator off the queue and returns it (moving
    /// `round` past it when it is a costly one); a number past every
    /// propagator when none is queued.
    fn pop(self, round: &mut Self::Round) -> usize;

    /// Takes `p` off the queue again (its own run queued it).
    fn unqueue(self, p: usize);

    /// Empties the queue.
    fn clear(self);
}

impl Pop for OneWord<'_> {
    /// Lowest first in every class: nothing to keep.
    type Round = ();

    #[inline(always)]
    fn round(self) {}

    #[inline(always)]
    fn pop(self, _round: &mut ()) -> usize {
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

/// A queue of several words run by rounds in its most costly class, which
/// starts at propagator `costly` (see [`Pop`]).
#[derive(Clone, Copy)]
struct Rounds<'q> {
    listed: Listed<'q>,
    /// The queued propagators woken by a fixed variable (see [`Words`]).
    fixed_woken: &'q [Cell<u64>],
    costly: usize,
}

impl Pop for Rounds<'_> {
    /// The propagator after the last costly one popped.
    type Round = usize;

    #[inline(always)]
    fn round(self) -> usize {
        self.costly
    }

    #[inline(always)]
    fn pop(self, cursor: &mut usize) -> usize {
        let (queue, fixed_woken) = (self.listed.queue, self.fixed_woken);
        loop {
            let Some(lowest) = lowest_from(queue, 0) else {
                return usize::MAX;
            };
            let p = if lowest < self.costly {
                lowest
            } else {
                // (A propagator is woken by a fixed variable only while
                // queued: popping and clearing take both bits.)
                let p = lowest_from(fixed_woken, *cursor)
                    .or_else(|| lowest_from(fixed_woken, self.costly))
                    .or_else(|| lowest_from(queue, *cursor))
                    .unwrap_or(lowest);
                *cursor = p + 1;
                p
            };
            self.unqueue(p);
            let (word, bit) = (p / 64, p % 64);
            if self
                .listed
                .enabled
                .is_none_or(|on| on[word] >> bit & 1 == 1)
            {
                return p;
            }
        }
    }

    #[inline(always)]
    fn unqueue(self, p: usize) {
        let (word, bit) = (p / 64, !(1u64 << (p % 64)));
        for bitset in [self.listed.queue, self.fixed_woken] {
            bitset[word].set(bitset[word].get() & bit);
        }
    }

    #[inline(always)]
    fn clear(self) {
        for w in self.listed.queue.iter().chain(self.fixed_woken) {
            w.set(0);
        }
    }
}

/// The bits below `i` of a word (all of them from 64 on).
#[inline(always)]
fn below(i: usize) -> u64 {
    1u64.checked_shl(i as u32).unwrap_or(0).wrapping_sub(1)
}

/// The lowest bit at or after `from` set in `bitset`, if any.
#[inline(always)]
fn lowest_from(bitset: &[Cell<u64>], from: usize) -> Option<usize> {
    let mut word = from / 64;
    let mut bits = bitset.get(word)?.get() & !below(from % 64);
    while bits == 0 {
        word += 1;
        bits = bitset.get(word)?.get();
    }
    Some(64 * word + bits.trailing_zeros() as usize)
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
    /// Lowest first in every class: nothing to keep.
    type Round = ();

    #[inline(always)]
    fn round(self) {}

    #[inline(always)]
    fn pop(self, _round: &mut ()) -> usize {
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

/// The loop: narrows by `decision`, then runs the next queued propagator
/// of `props` ([`Pop::pop`]) until none is queued or one fails; counts the
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
    let mut round = queue.round();
    loop {
        let p = queue.pop(&mut round);
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

impl<'a, const ROUNDS: bool> RunSlot for Untraced<'a, Words<'a, ROUNDS>> {
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

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::{Listed, Pop, Rounds};

    /// A queue of `words` words holding `queued`.
    fn queue_of(words: usize, queued: &[usize]) -> Vec<Cell<u64>> {
        let queue: Vec<Cell<u64>> = (0..words).map(|_| Cell::new(0)).collect();
        for &p in queued {
            queue[p / 64].set(queue[p / 64].get() | 1 << (p % 64));
        }
        queue
    }

    /// The costly class from propagator 100 on, run by rounds over `queue`
    /// (dropping those `enabled` lacks, when given) with `fixed_woken`.
    fn rounds_from_100<'q>(
        queue: &'q [Cell<u64>],
        fixed_woken: &'q [Cell<u64>],
        enabled: Option<&'q [u64]>,
    ) -> Rounds<'q> {
        Rounds {
            listed: Listed { queue, enabled },
            fixed_woken,
            costly: 100,
        }
    }

    /// Pops `pops` propagators off `pop`, queuing the propagators `wakes`
    /// names in `queue` after the first pop of the propagator it pairs them
    /// with (as that propagator's run would), and those of `fixed` also in
    /// `fixed_woken` (woken by a fixed variable); returns the order popped.
    fn popped<P: Pop>(
        pop: P,
        (queue, fixed_woken): (&[Cell<u64>], &[Cell<u64>]),
        wakes: &[(usize, &[usize])],
        fixed: &[usize],
        pops: usize,
    ) -> Vec<usize> {
        let mut round = pop.round();
        let mut order = Vec::new();
        let set = |bitset: &[Cell<u64>], q: usize| {
            bitset[q / 64].set(bitset[q / 64].get() | 1 << (q % 64));
        };
        for _ in 0..pops {
            let p = pop.pop(&mut round);
            let first = !order.contains(&p);
            order.push(p);
            for &(after, woken) in wakes {
                if after == p && first {
                    for &q in woken {
                        set(queue, q);
                        if fixed.contains(&q) {
                            set(fixed_woken, q);
                        }
                    }
                }
            }
        }
        order
    }

    #[test]
    fn rounds_run_the_cheaper_classes_lowest_first_and_the_costly_class_in_turn() {
        // Propagators 100 and on are the costly class. 101's run wakes 105
        // (ahead of it: this round) and 101 itself and 100 (behind: the
        // next round); 110's run wakes 5, a cheaper one, which runs next.
        let none = queue_of(2, &[]);
        let queue = queue_of(2, &[3, 70, 101, 110, 120]);
        let rounds = rounds_from_100(&queue, &none, None);
        let wakes: &[(usize, &[usize])] = &[(101, &[105, 101, 100]), (110, &[5])];
        assert_eq!(
            popped(rounds, (&queue, &none), wakes, &[], 10),
            [3, 70, 101, 105, 110, 5, 120, 100, 101, usize::MAX]
        );
        // Lowest first, the same queue and wakes.
        let queue = queue_of(2, &[3, 70, 101, 110, 120]);
        let listed = Listed {
            queue: &queue,
            enabled: None,
        };
        assert_eq!(
            popped(listed, (&queue, &none), wakes, &[], 10),
            [3, 70, 101, 100, 101, 105, 110, 5, 120, usize::MAX]
        );
    }

    #[test]
    fn rounds_run_the_costly_propagators_a_fixed_variable_woke_first() {
        // 101's run wakes 105 by a removal and 115 and 100 by a fixed
        // variable: 115 goes first (the round of those is at 102), then
        // 100 (wrapping around), then the others' round from after 100.
        let (queue, woken) = (queue_of(2, &[101, 110, 120]), queue_of(2, &[]));
        let rounds = rounds_from_100(&queue, &woken, None);
        let wakes: &[(usize, &[usize])] = &[(101, &[105, 115, 100])];
        assert_eq!(
            popped(rounds, (&queue, &woken), wakes, &[115, 100], 7),
            [101, 115, 100, 105, 110, 120, usize::MAX]
        );
        assert!(woken.iter().all(|w| w.get() == 0), "none left once popped");
    }

    #[test]
    fn rounds_drop_a_disabled_propagator_popped() {
        // 110 is queued but disabled (wake lists may queue it).
        let (queue, none) = (queue_of(2, &[101, 110, 120]), queue_of(2, &[]));
        let enabled = [u64::MAX, !(1 << (110 - 64))];
        let rounds = rounds_from_100(&queue, &none, Some(&enabled));
        assert_eq!(
            popped(rounds, (&queue, &none), &[], &[], 3),
            [101, 120, usize::MAX]
        );
    }
}
