//! How a propagator narrows domains: the one narrowing interface
//! ([`Narrow`]) with its untraced and traced contexts, who a narrowing
//! wakes ([`Wakeups`], [`Queue`]) and the fixed-variable bitset.

use std::cell::Cell;
use std::sync::Arc;

use super::{Conflict, Propagator};
use crate::domain::{Domain, ones};
use crate::ids::{ConstraintId, Group, Tags, VarId};

/// Receives what a traced run does as it happens (the trace hooks in here).
pub(crate) trait PruneSink {
    /// Constraint `by`'s propagator narrowed `x` from `before` to `after`
    /// (a strict, non-empty subset).
    fn pruned(&mut self, by: ConstraintId, x: VarId, before: Domain, after: Domain);

    /// Constraint `by`'s propagator ran to its end without a conflict.
    fn propagated(&mut self, by: ConstraintId) {
        let _ = by;
    }
}

/// Who to queue when a variable changes, as a narrowing needs it: subscriber
/// bit masks for a model with few propagators, lists for one with many.
#[derive(Clone, Copy)]
pub(crate) struct Wakeups<'a> {
    /// With at most [`MASK_WORDS`] queue words: `masks[(3x + e) * w..][..w]`
    /// is the set of propagators that event `e` of variable `x` wakes (`e`:
    /// 0 a value removed, 1 a bound moved, 2 fixed; each set includes the
    /// subscribers of the weaker events), `w` the queue's word count. Empty
    /// when the lists below are used instead.
    pub(crate) masks: &'a [u64],
    /// Bucket boundaries into `list`, three buckets a variable: for variable
    /// `x`, a `Changed` event wakes `list[b[3x]..b[3x+1]]`, `Bounds` wakes
    /// `list[b[3x]..b[3x+2]]`, `Fixed` wakes `list[b[3x]..b[3x+3]]`.
    pub(crate) bounds: &'a [u32],
    /// Propagator ids.
    pub(crate) list: &'a [u32],
    /// Bit `x` set when some propagator subscribes to `Changed` or
    /// `Bounds` of variable `x` (set for more variables is safe, only
    /// slower): a variable without is woken by being fixed alone. As long
    /// as [`fixed_words`] says, the last word zero.
    pub(crate) wakes_open: &'a [u64],
}

/// Whether narrowing `old` to `new` (a subset of `old`) removed its lowest
/// or its highest value, without finding either.
///
/// Lowest: `-old` is `old`'s lowest bit and, above it, the values `old`
/// lacks, so within `old` it is the lowest bit alone, and `new & -old` is
/// zero just when `new` lost it. Highest, bit `h`: a `new` that kept it is
/// at least `2^h`, above `old >> 1 < 2^h`; one that lost it is at most
/// `old - 2^h`, which is at most `old >> 1` (`r - r / 2 <= 2^(h-1)` for
/// the rest `r < 2^h`).
#[inline(always)]
pub(crate) fn bounds_moved(old: u64, new: u64) -> bool {
    new & old.wrapping_neg() == 0 || new <= old >> 1
}

/// The event of variable `i` now `new`, as an index into its three
/// buckets (0 a value removed, 1 a bound moved as `moved` says, 2 fixed),
/// marking it in `fixed` if it is fixed. The bounds are looked at only when
/// not fixed.
#[inline(always)]
pub(crate) fn mark_event(
    fixed: &mut [u64],
    i: usize,
    new: u64,
    moved: impl FnOnce() -> bool,
) -> usize {
    if Domain::from_bits(new).is_fixed() {
        fixed[i / 64] |= 1 << (i % 64);
        2
    } else {
        usize::from(moved())
    }
}

/// The propagators of a one-word queue that narrowing variable `i` from
/// `old` to `new` (a non-empty strict subset) wakes, from `masks` (one
/// word a bucket, see [`Wakeups::masks`]), marking `i` in `fixed` if it is
/// now fixed (as [`mark_event`] and [`Wakeups::queue_event`] together).
///
/// Most variables have no subscriber to `Bounds` alone (only a bounds
/// propagator such as `less` makes one), so their `Changed` and `Bounds`
/// buckets are equal: then which of the two the event is makes no
/// difference, and the bounds are not looked at.
#[inline(always)]
pub(crate) fn one_word_woken(
    masks: &[u64],
    fixed: &mut [u64],
    i: usize,
    old: u64,
    new: u64,
) -> u64 {
    // One bounds test for the three buckets.
    let Some(&[changed, bounds, on_fixed]) = masks.get(3 * i..3 * i + 3) else {
        unreachable!("every variable has its three buckets")
    };
    // `new` is not empty, so one value or less is one value (the plain
    // test: a caller testing its narrowed domain the same way shares it).
    if new & new.wrapping_sub(1) == 0 {
        // Bit `i` alone: with at most 64 variables (one word and the
        // spare) a test of the length and one OR, without `i / 64`.
        set_bits_from(fixed, i, 1);
        on_fixed
    } else if changed == bounds || !bounds_moved(old, new) {
        changed
    } else {
        bounds
    }
}

/// The most queue words (64 propagators each) for which the engine keeps
/// subscriber masks: a wake-up is then one OR a word, not a loop over the
/// subscribers.
pub(crate) const MASK_WORDS: usize = 4;

impl Wakeups<'_> {
    /// Queues the subscribers of variable `i` for the event `old -> new`
    /// (`new` a non-empty strict subset of `old`), and sets bit `i` of the
    /// fixed-variable bitset `fixed` if `new` has one value.
    #[inline(always)]
    pub(crate) fn wake<const ROUNDS: bool>(
        &self,
        queue: Words<'_, ROUNDS>,
        fixed: &mut [u64],
        i: usize,
        old: u64,
        new: u64,
    ) {
        // The bounds are looked at only when not fixed.
        let event = mark_event(fixed, i, new, || bounds_moved(old, new));
        self.queue_event(queue, i, event);
    }

    /// Queues the subscribers of variable `i` to event `event` (0 a value
    /// removed, 1 a bound moved, 2 fixed), and for a fixed one also marks
    /// them woken by it when the queue keeps that (see [`Words`]).
    #[inline(always)]
    pub(crate) fn queue_event<const ROUNDS: bool>(
        &self,
        queue: Words<'_, ROUNDS>,
        i: usize,
        event: usize,
    ) {
        let Words { queue, fixed_woken } = queue;
        let fixed = ROUNDS && event == FIXED;
        if let [word] = queue {
            // (One word is never run by rounds: `fixed_woken` is empty.)
            word.set(word.get() | self.masks[3 * i + event]);
            return;
        }
        let words = queue.len();
        if words <= MASK_WORDS {
            let mask = &self.masks[(3 * i + event) * words..][..words];
            for (q, m) in queue.iter().zip(mask) {
                q.set(q.get() | m);
            }
            if fixed {
                for (f, m) in fixed_woken.iter().zip(mask) {
                    f.set(f.get() | m);
                }
            }
            return;
        }
        let b = &self.bounds[3 * i..3 * i + 4];
        for &p in &self.list[b[0] as usize..b[event + 1] as usize] {
            let (word, bit) = ((p >> 6) as usize, 1u64 << (p & 63));
            let q = &queue[word];
            q.set(q.get() | bit);
            if let Some(woken) = fixed_woken.get(word).filter(|_| fixed) {
                woken.set(woken.get() | bit);
            }
        }
    }
}

/// `Some(first)` when `vars` are the variables `first, first + 1, ...` in
/// order (a group declared together, as most are): a propagator may then
/// read their fixed ones as one slice of the fixed-variable bitset
/// ([`Narrow::fixed_range`]) and narrow their domains as one block
/// ([`Narrow::block`]).
pub(crate) fn in_order_from(vars: &[VarId]) -> Option<usize> {
    let first = vars.first()?.index();
    let in_order = vars.iter().enumerate().all(|(i, x)| x.index() == first + i);
    in_order.then_some(first)
}

/// Whether a variable occurs twice in `vars`. Runs once an engine build,
/// which may serve a single uniqueness check of a few nodes: a bitset of
/// the indices modulo 64 settles most groups in one pass, and only a
/// collision there needs the pairwise test.
pub(crate) fn has_repeats(vars: &[VarId]) -> bool {
    let (mut seen, mut collision) = (0u64, false);
    for x in vars {
        let bit = 1u64 << (x.index() % 64);
        collision |= seen & bit != 0;
        seen |= bit;
    }
    collision && (1..vars.len()).any(|i| vars[..i].contains(&vars[i]))
}

/// The words of the fixed-variable bitset for `vars` variables: one for
/// every 64 or part of it, and a spare zero word, so that
/// [`Narrow::fixed_range`] reads two words without a test.
pub(crate) fn fixed_words(vars: usize) -> usize {
    vars.div_ceil(64) + 1
}

/// The fixed-variable bitset of `doms`: bit `i` set when `doms[i]` has one
/// value, in [`fixed_words`] words.
pub(crate) fn fixed_bits(doms: &[u64], into: &mut [u64]) {
    // Each word written once, the spare one too (a `fill(0)` first is a
    // `memset` call).
    let mut chunks = doms.chunks(64);
    for word in into {
        // One value is a power of two, which LLVM tests as `d ^ (d - 1) >
        // d - 1` (three instructions, where `Domain::is_fixed`'s shift
        // takes five; zero, an empty domain, is none); and the bits shifted
        // in from the last domain down, not placed at `i`, so that the loop
        // is not vectorized (SSE2 has no unsigned 64-bit compare).
        *word = chunks.next().map_or(0, |doms| {
            doms.iter()
                .rev()
                .fold(0, |w, &d| w << 1 | u64::from(d.is_power_of_two()))
        });
    }
}

/// Bits `first..first + 64` of `bitset`, which has a spare zero word at its
/// end (see [`fixed_words`]), so the next word always exists; `first` must
/// be below the bits the other words hold.
#[inline(always)]
pub(crate) fn bits_from(bitset: &[u64], first: usize) -> u64 {
    if let [low, _spare] = *bitset {
        // At most 64 variables (the common case): one word and the spare,
        // and `first` below 64.
        debug_assert!(first < 64, "a bit of the first word");
        return low >> (first % 64);
    }
    bits_from_words(bitset, first)
}

/// [`bits_from`] from any word of `bitset`.
#[inline(always)]
pub(crate) fn bits_from_words(bitset: &[u64], first: usize) -> u64 {
    let (word, shift) = (first / 64, first % 64);
    // Shifting left twice moves the next word by `64 - shift` without a
    // shift by 64 when `shift` is 0. (One read of both words: one bounds
    // check, not two.)
    match bitset.get(word..word + 2) {
        Some(&[low, high]) => low >> shift | (high << 1) << (63 - shift),
        _ => unreachable!("a spare word follows every bit read (see fixed_words)"),
    }
}

/// Sets bits `first..first + 64` of `bitset` as `bits` says (each bit set
/// in `bits` sets its bit), in the two words they span; `bits` must hold
/// no bit past the ones the other words hold, so that the spare word (see
/// [`fixed_words`]) stays zero.
#[inline(always)]
pub(crate) fn set_bits_from(bitset: &mut [u64], first: usize, bits: u64) {
    if let [low, _spare] = bitset {
        // As in `bits_from`: one word and the spare, which stays zero.
        debug_assert!(first < 64, "a bit of the first word");
        *low |= bits << (first % 64);
        return;
    }
    let (word, shift) = (first / 64, first % 64);
    // As in `bits_from`: shifting right twice moves by `64 - shift`.
    match bitset.get_mut(word..word + 2) {
        Some([low, high]) => {
            *low |= bits << shift;
            *high |= (bits >> 1) >> (63 - shift);
        }
        _ => unreachable!("a spare word follows every bit set (see fixed_words)"),
    }
}

/// The domains of a block of variables `first..first + n`, to narrow in
/// place without waking anyone ([`Narrow::block`]), with what a propagator
/// needs to know of them first.
pub(crate) struct Block<'b> {
    /// The domains, as raw bits: `doms[k]` is variable `first + k`'s.
    pub(crate) doms: &'b mut [u64],
    /// Bit `k` set: variable `first + k` is fixed.
    pub(crate) fixed: u64,
    /// Bit `k` set: some propagator subscribes to `Changed` or `Bounds` of
    /// variable `first + k` (see [`Wakeups::wakes_open`]).
    pub(crate) wakes_open: u64,
}

/// The propagation queue as a narrowing sees it: one bit a propagator,
/// in one word (at most 64 propagators, the common case) or several.
pub(crate) trait Queue: Copy {
    /// Queues the subscribers of variable `i` for the event `old -> new`
    /// (`new` a non-empty strict subset of `old`) and marks `i` in `fixed`
    /// if `new` has one value.
    fn wake(self, wakeups: &Wakeups<'_>, fixed: &mut [u64], i: usize, old: u64, new: u64);

    /// Queues the subscribers of variable `i` to event `event` (0 a value
    /// removed, 1 a bound moved, 2 fixed).
    fn queue_event(self, wakeups: &Wakeups<'_>, i: usize, event: usize);
}

/// A queue of one word: a wake-up is one OR of the variable's mask.
#[derive(Clone, Copy)]
pub(crate) struct OneWord<'a>(pub(crate) &'a Cell<u64>);

impl Queue for OneWord<'_> {
    #[inline(always)]
    fn wake(self, wakeups: &Wakeups<'_>, fixed: &mut [u64], i: usize, old: u64, new: u64) {
        let woken = one_word_woken(wakeups.masks, fixed, i, old, new);
        self.0.set(self.0.get() | woken);
    }

    #[inline(always)]
    fn queue_event(self, wakeups: &Wakeups<'_>, i: usize, event: usize) {
        self.0.set(self.0.get() | wakeups.masks[3 * i + event]);
    }
}

/// A queue of any number of words (subscriber masks up to [`MASK_WORDS`]
/// words, lists beyond). With `ROUNDS`, for a queue that runs its most
/// costly class by rounds and for traced runs, it also marks the
/// propagators a variable's being fixed wakes; without, that code is not
/// there at all (an untraced queue run lowest first).
#[derive(Clone, Copy)]
pub(crate) struct Words<'a, const ROUNDS: bool> {
    /// The queued propagators.
    pub(crate) queue: &'a [Cell<u64>],
    /// As many words when the queue runs its most costly class by rounds,
    /// else none (and always none without `ROUNDS`): the queued
    /// propagators that some variable's being fixed woke since they last
    /// ran, which run first in those rounds (see Scheduling in the
    /// engine's docs).
    pub(crate) fixed_woken: &'a [Cell<u64>],
}

impl<const ROUNDS: bool> Queue for Words<'_, ROUNDS> {
    #[inline(always)]
    fn wake(self, wakeups: &Wakeups<'_>, fixed: &mut [u64], i: usize, old: u64, new: u64) {
        wakeups.wake(self, fixed, i, old, new);
    }

    #[inline(always)]
    fn queue_event(self, wakeups: &Wakeups<'_>, i: usize, event: usize) {
        wakeups.queue_event(self, i, event);
    }
}

/// The event number of a variable's being fixed (see
/// [`Wakeups::queue_event`]).
const FIXED: usize = 2;

/// The one interface through which the built-in propagators read and
/// narrow domains.
///
/// Two implementations: [`Untraced`], for the runs nobody records (every
/// run of a plain search), and [`Traced`], which also reports each
/// narrowing to the trace. The engine picks one at compile time from the
/// observer's type, so an untraced run contains no call into the trace:
/// a call anywhere in an inlined narrowing, however cold, makes every
/// propagator save and restore registers on each run. [`Ctx`](super::Ctx), the public
/// handle of user propagators, wraps either.
///
/// The methods that take a variable's index rather than its [`VarId`]
/// serve the group propagators, which know their variables by place.
pub(crate) trait Narrow<'a> {
    /// Whether a trace sees every narrowing: then a propagator narrows
    /// through [`Narrow::restrict`] and [`Narrow::narrow_at`] alone, in
    /// its documented order, never by [`Narrow::block`].
    const TRACED: bool;

    /// The current domains of every variable, as raw bits.
    fn doms(&self) -> &[u64];

    /// The current domain of `x`.
    #[inline(always)]
    fn dom(&self, x: VarId) -> Domain {
        Domain::from_bits(self.doms()[x.index()])
    }

    /// Narrows variable `i` from `old`, its current domain, to `new`, a
    /// non-empty strict subset of it, and wakes its subscribers.
    fn narrow_at(&mut self, i: usize, old: u64, new: u64);

    /// Narrows `x` to the values also in `keep`; returns whether the domain
    /// changed.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if no value would be left; the domain is then unchanged.
    #[inline(always)]
    fn restrict(&mut self, x: VarId, keep: Domain) -> Result<bool, Conflict> {
        let i = x.index();
        let old = self.doms()[i];
        let new = old & keep.bits();
        if new == old {
            return Ok(false);
        }
        if new == 0 {
            return Err(Conflict);
        }
        self.narrow_at(i, old, new);
        Ok(true)
    }

    /// The bounds of `x`; a conflict if its domain is empty.
    #[inline(always)]
    fn bounds(&self, x: VarId) -> Result<(u8, u8), Conflict> {
        let d = self.dom(x);
        match (d.min(), d.max()) {
            (Some(lo), Some(hi)) => Ok((lo, hi)),
            _ => Err(Conflict),
        }
    }

    /// Removes the values below `v` from `x`.
    #[inline(always)]
    fn at_least(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        self.restrict(x, Domain::FULL.at_least(v))
    }

    /// Removes the values above `v` from `x`.
    #[inline(always)]
    fn at_most(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        self.restrict(x, Domain::FULL.at_most(v))
    }

    /// The fixed variables among `first..first + n` (`n <= 64`): bit `k`
    /// set when variable `first + k` is fixed.
    fn fixed_range(&self, first: usize, n: usize) -> u64;

    /// The running propagator's state words.
    fn state(&mut self) -> &mut [u64];

    /// The first of the running propagator's state words, for a propagator
    /// that keeps at least one.
    fn first_state_word(&mut self) -> &mut u64;

    /// The variables of the group at `group` among the engine's group
    /// variables, for as long as the context's borrow of them.
    fn group(&self, group: Group) -> &'a [VarId];

    /// The offsets at `at` among the engine's all-different offsets, for as
    /// long as the context's borrow of them.
    fn offsets(&self, at: Group) -> &'a [i32];

    /// The user's propagator at index `i` among the engine's.
    fn custom(&self, i: u32) -> &'a (dyn Propagator + Send + Sync);

    /// The model's tags (see [`Tags`]).
    fn tags(&self) -> &Tags;

    /// The domains of variables `first..first + n` (`n <= 64`), to narrow
    /// in place without waking anyone, with which of them are fixed and
    /// which have subscribers to narrowings that leave them open; the
    /// caller then hands every narrowed variable that someone listens to
    /// to [`Narrow::wake_block`]. Untraced runs only.
    fn block(&mut self, first: usize, n: usize) -> Block<'_>;

    /// Wakes the subscribers of variables `first + k` for each bit `k` of
    /// `wake`, as [`Narrow::restrict`] would have for all the narrowings
    /// [`Narrow::block`] made: bit `k` of `moved` says whether a bound of
    /// variable `first + k` moved, bit `k` of `fixed` whether it is now
    /// fixed (`fixed` within `wake`). Several narrowings of one variable
    /// wake the same propagators as one: the queue is a set, a bound that
    /// moved in one step has moved overall, and only the last step can fix.
    fn wake_block(&mut self, first: usize, wake: u64, moved: u64, fixed: u64);
}

/// The model's lists that propagators keep places in, as the engine lends
/// them to every run: a propagator stores a place ([`Group`], an index),
/// so that it is plain data with nothing to allocate or drop.
#[derive(Clone, Copy)]
pub(crate) struct Lists<'a> {
    /// The variables of every group propagator, each group's at its
    /// [`Group`] ([`Narrow::group`]).
    pub(crate) groups: &'a [VarId],
    /// The offsets of every all-different that has some, each at its
    /// [`Group`] ([`Narrow::offsets`]).
    pub(crate) offsets: &'a [i32],
    /// The user's propagators, each at its index ([`Narrow::custom`]).
    pub(crate) customs: &'a [Arc<dyn Propagator + Send + Sync>],
}

impl<'a> Lists<'a> {
    /// Lists of group variables only: no offsets, no user's propagators.
    #[cfg(test)]
    pub(crate) fn groups(groups: &'a [VarId]) -> Lists<'a> {
        Lists {
            groups,
            offsets: &[],
            customs: &[],
        }
    }
}

/// The narrowing context of a run nobody records, on a queue of either
/// width.
pub(crate) struct Untraced<'a, Q> {
    /// The current domains, as raw bits, indexed by variable.
    doms: &'a mut [u64],
    /// Bit `i` set: variable `i` is fixed. One word longer than the
    /// variables need, the last always zero (see [`fixed_words`]).
    fixed: &'a mut [u64],
    /// Every propagator's state words; the running one's are `state[run]`.
    state: &'a mut [u64],
    /// Where the running propagator's state words are in `state`.
    run: (u32, u32),
    /// The model's lists that propagators keep places in.
    lists: Lists<'a>,
    /// The model's tags, to name variables and tell its own from others'.
    tags: &'a Tags,
    wakeups: Wakeups<'a>,
    queue: Q,
}

impl<'a, Q: Queue> Untraced<'a, Q> {
    /// A context on these domains, fixed-variable bitset, propagator state
    /// words and queue; `lists` are the engine's copies of the model's
    /// lists, `tags` the model's.
    #[inline(always)]
    pub(crate) fn new(
        doms: &'a mut [u64],
        fixed: &'a mut [u64],
        state: &'a mut [u64],
        lists: Lists<'a>,
        tags: &'a Tags,
        wakeups: Wakeups<'a>,
        queue: Q,
    ) -> Untraced<'a, Q> {
        let run = (0, state.len() as u32);
        Untraced {
            doms,
            fixed,
            state,
            run,
            lists,
            tags,
            wakeups,
            queue,
        }
    }
}

/// Running one propagator after another in one context, as the engine's
/// fixpoint loop does.
pub(crate) trait RunAs {
    /// Makes `state[words.0..words.1]` the running propagator's state
    /// words, and constraint `by` the one it enforces.
    fn run_as(&mut self, words: (u32, u32), by: ConstraintId);

    /// The running propagator ended without a conflict.
    fn ran(&mut self);

    /// Narrows `x` to the values also in `keep`, unless that leaves none:
    /// a search decision, which is no constraint's pruning.
    fn decide(&mut self, x: VarId, keep: Domain);
}

impl<'a, Q: Queue> RunAs for Untraced<'a, Q> {
    #[inline(always)]
    fn run_as(&mut self, words: (u32, u32), _: ConstraintId) {
        self.run = words;
    }

    #[inline(always)]
    fn ran(&mut self) {}

    #[inline(always)]
    fn decide(&mut self, x: VarId, keep: Domain) {
        // An empty narrowing is refused and changes nothing.
        let _ = Narrow::restrict(self, x, keep);
    }
}

impl<'a, Q: Queue> Narrow<'a> for Untraced<'a, Q> {
    const TRACED: bool = false;

    #[inline(always)]
    fn doms(&self) -> &[u64] {
        self.doms
    }

    #[inline(always)]
    fn narrow_at(&mut self, i: usize, old: u64, new: u64) {
        self.doms[i] = new;
        self.queue.wake(&self.wakeups, self.fixed, i, old, new);
    }

    #[inline(always)]
    fn fixed_range(&self, first: usize, n: usize) -> u64 {
        bits_from(self.fixed, first) & (u64::MAX >> (64 - n))
    }

    #[inline(always)]
    fn state(&mut self) -> &mut [u64] {
        &mut self.state[self.run.0 as usize..self.run.1 as usize]
    }

    #[inline(always)]
    fn first_state_word(&mut self) -> &mut u64 {
        debug_assert!(self.run.0 < self.run.1, "the propagator has state words");
        &mut self.state[self.run.0 as usize]
    }

    #[inline(always)]
    fn group(&self, group: Group) -> &'a [VarId] {
        group.of(self.lists.groups)
    }

    #[inline(always)]
    fn offsets(&self, at: Group) -> &'a [i32] {
        at.of(self.lists.offsets)
    }

    fn custom(&self, i: u32) -> &'a (dyn Propagator + Send + Sync) {
        &*self.lists.customs[i as usize]
    }

    fn tags(&self) -> &Tags {
        self.tags
    }

    #[inline(always)]
    fn block(&mut self, first: usize, n: usize) -> Block<'_> {
        let within = u64::MAX >> (64 - n);
        Block {
            fixed: bits_from(self.fixed, first) & within,
            wakes_open: bits_from(self.wakeups.wakes_open, first) & within,
            doms: &mut self.doms[first..first + n],
        }
    }

    #[inline(always)]
    fn wake_block(&mut self, first: usize, wake: u64, moved: u64, fixed: u64) {
        // Most runs fix nothing and wake no one.
        if wake == 0 {
            return;
        }
        set_bits_from(self.fixed, first, fixed);
        for k in ones(wake) {
            // The event (as in `mark_event`): 2 fixed, else 1 if a bound
            // moved, else 0.
            let event = ((fixed >> k & 1) << 1 | (moved & !fixed) >> k & 1) as usize;
            self.queue.queue_event(&self.wakeups, first + k, event);
        }
    }
}

/// The narrowing context of a run a trace records: an untraced one that
/// also reports every narrowing to `sink`.
pub(crate) struct Traced<'a, 's> {
    inner: Untraced<'a, Words<'a, true>>,
    /// The constraint whose propagator runs.
    by: ConstraintId,
    sink: &'s mut dyn PruneSink,
}

impl<'a, 's> Traced<'a, 's> {
    /// A context as [`Untraced::new`] makes one, reporting to `sink`.
    pub(crate) fn new(
        inner: Untraced<'a, Words<'a, true>>,
        sink: &'s mut dyn PruneSink,
    ) -> Traced<'a, 's> {
        // Replaced before the first run (`RunAs::run_as`).
        let by = inner.tags.constraint(0);
        Traced { inner, by, sink }
    }
}

impl RunAs for Traced<'_, '_> {
    fn run_as(&mut self, words: (u32, u32), by: ConstraintId) {
        self.inner.run = words;
        self.by = by;
    }

    fn ran(&mut self) {
        self.sink.propagated(self.by);
    }

    fn decide(&mut self, x: VarId, keep: Domain) {
        self.inner.decide(x, keep);
    }
}

impl<'a> Narrow<'a> for Traced<'a, '_> {
    const TRACED: bool = true;

    #[inline(always)]
    fn doms(&self) -> &[u64] {
        self.inner.doms
    }

    fn narrow_at(&mut self, i: usize, old: u64, new: u64) {
        self.inner.narrow_at(i, old, new);
        let x = self.inner.tags.var(i as u32);
        let (old, new) = (Domain::from_bits(old), Domain::from_bits(new));
        self.sink.pruned(self.by, x, old, new);
    }

    fn fixed_range(&self, first: usize, n: usize) -> u64 {
        self.inner.fixed_range(first, n)
    }

    fn state(&mut self) -> &mut [u64] {
        Narrow::state(&mut self.inner)
    }

    fn first_state_word(&mut self) -> &mut u64 {
        self.inner.first_state_word()
    }

    fn group(&self, group: Group) -> &'a [VarId] {
        self.inner.group(group)
    }

    fn offsets(&self, at: Group) -> &'a [i32] {
        self.inner.offsets(at)
    }

    fn custom(&self, i: u32) -> &'a (dyn Propagator + Send + Sync) {
        self.inner.custom(i)
    }

    fn tags(&self) -> &Tags {
        self.inner.tags
    }

    fn block(&mut self, _: usize, _: usize) -> Block<'_> {
        unreachable!("a traced run narrows one variable at a time")
    }

    fn wake_block(&mut self, _: usize, _: u64, _: u64, _: u64) {
        unreachable!("a traced run narrows one variable at a time")
    }
}

/// What a user's propagator may do with the domains, as [`Ctx`](super::Ctx) offers
/// it: either context behind one pointer.
pub(crate) trait DynNarrow {
    /// [`Narrow::dom`].
    fn dom(&self, x: VarId) -> Domain;
    /// [`Narrow::restrict`].
    fn restrict(&mut self, x: VarId, keep: Domain) -> Result<bool, Conflict>;
    /// [`Narrow::state`].
    fn state(&mut self) -> &mut [u64];
    /// Whether `x` is a variable of the model being propagated.
    fn owns(&self, x: VarId) -> bool;
    /// The domains of `xs` into `out`, as [`Narrow::dom`] reads each, in
    /// one call; the first of `xs` that is not a variable of the model, if
    /// one is (with `out` partly written).
    fn doms_into(&self, xs: &[VarId], out: &mut [u64]) -> Result<(), VarId>;
}

impl<'a, N: Narrow<'a>> DynNarrow for N {
    fn owns(&self, x: VarId) -> bool {
        self.tags().owns_var(x, self.doms().len())
    }

    fn dom(&self, x: VarId) -> Domain {
        Narrow::dom(self, x)
    }

    fn doms_into(&self, xs: &[VarId], out: &mut [u64]) -> Result<(), VarId> {
        let (doms, tags) = (self.doms(), self.tags());
        for (o, &x) in out.iter_mut().zip(xs) {
            if !tags.owns_var(x, doms.len()) {
                return Err(x);
            }
            *o = doms[x.index()];
        }
        Ok(())
    }

    fn restrict(&mut self, x: VarId, keep: Domain) -> Result<bool, Conflict> {
        Narrow::restrict(self, x, keep)
    }

    fn state(&mut self) -> &mut [u64] {
        Narrow::state(self)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::{Lists, Narrow, Tags, Untraced, Wakeups, Words, fixed_bits, fixed_words};

    static NO_TAGS: Tags = Tags::new(0);
    use crate::domain::Domain;
    use crate::ids::VarId;

    #[test]
    fn has_repeats_agrees_with_comparing_every_pair() {
        // Indices drawn from a few values 64 apart, so that most lists
        // collide in the bitset of indices modulo 64 with or without a
        // true repeat.
        let mut rng = crate::check::SplitMix64::new(3);
        let (mut with, mut without) = (0, 0);
        for _ in 0..5_000 {
            let n = rng.below(9);
            let vars: Vec<VarId> = (0..n)
                .map(|_| VarId::new(0, (rng.below(6) + 64 * rng.below(3)) as u32))
                .collect();
            let expected = (1..n).any(|i| (0..i).any(|j| vars[i] == vars[j]));
            assert_eq!(super::has_repeats(&vars), expected, "{vars:?}");
            with += usize::from(expected);
            without += usize::from(!expected && n > 2);
        }
        assert!(with > 1_000 && without > 200, "both answers are covered");
    }

    #[test]
    fn wake_block_wakes_and_marks_as_waking_each_variable_does() {
        // 100 variables, random subscriber masks over queues of one and two
        // words, a block anywhere among them narrowed at random: waking the
        // block at once must queue the propagators and mark the fixed
        // variables that waking each narrowed variable in turn does.
        let mut rng = crate::check::SplitMix64::new(23);
        for _ in 0..2_000 {
            let words = 1 + rng.below(2);
            let masks: Vec<u64> = (0..300 * words).map(|_| rng.next_u64()).collect();
            let wakeups = Wakeups {
                masks: &masks,
                bounds: &[],
                list: &[],
                wakes_open: &[],
            };
            let (first, n) = (rng.below(90), 1 + rng.below(10));
            let old: Vec<u64> = (0..100).map(|_| rng.next_u64() | 1 << 40).collect();
            let mut doms = old.clone();
            let (mut wake, mut moved, mut fixed) = (0u64, 0u64, 0u64);
            for k in 0..n {
                let x = first + k;
                doms[x] = match rng.below(3) {
                    0 => old[x],
                    1 => old[x] & old[x].wrapping_neg(),
                    _ => old[x] & (rng.next_u64() | 1 << 40),
                };
                if doms[x] != old[x] {
                    wake |= 1 << k;
                    moved |= u64::from(super::bounds_moved(old[x], doms[x])) << k;
                    fixed |= u64::from(Domain::from_bits(doms[x]).is_fixed()) << k;
                }
            }
            let (mut queue, mut marks) = (vec![0u64; words], vec![0u64; fixed_words(100)]);
            let mut fixed_woken = vec![0u64; words];
            for k in crate::domain::ones(wake) {
                let x = first + k;
                let queue = Words::<true> {
                    queue: Cell::from_mut(&mut queue[..]).as_slice_of_cells(),
                    fixed_woken: Cell::from_mut(&mut fixed_woken[..]).as_slice_of_cells(),
                };
                wakeups.wake(queue, &mut marks, x, old[x], doms[x]);
            }
            let (mut block_queue, mut block_marks) =
                (vec![0u64; words], vec![0u64; fixed_words(100)]);
            let mut block_fixed_woken = vec![0u64; words];
            let cells = Cell::from_mut(&mut block_queue[..]).as_slice_of_cells();
            let woken = Cell::from_mut(&mut block_fixed_woken[..]).as_slice_of_cells();
            let mut ctx = Untraced::new(
                &mut doms,
                &mut block_marks,
                &mut [],
                Lists::groups(&[]),
                &NO_TAGS,
                wakeups,
                Words::<true> {
                    queue: cells,
                    fixed_woken: woken,
                },
            );
            ctx.wake_block(first, wake, moved, fixed);
            assert_eq!(
                (block_queue, block_marks, block_fixed_woken),
                (queue, marks, fixed_woken),
                "{first} + {n}"
            );
        }
    }

    #[test]
    fn bounds_moved_agrees_with_comparing_the_bounds() {
        // Random domains and random subsets of them, empty and equal ones
        // included, with both ends of the word among them.
        let mut rng = crate::check::SplitMix64::new(5);
        for _ in 0..20_000 {
            let old = rng.next_u64() | 1 << rng.below(64);
            let new =
                old & [rng.next_u64(), rng.next_u64() | rng.next_u64(), u64::MAX, 0][rng.below(4)];
            let (o, n) = (Domain::from_bits(old), Domain::from_bits(new));
            let expected = n.min() != o.min() || n.max() != o.max();
            assert_eq!(super::bounds_moved(old, new), expected, "{o} -> {n}");
        }
    }

    #[test]
    fn bitsets_of_one_word_read_and_set_as_those_of_several_do() {
        // One word and the spare (at most 64 variables), against the
        // general reading of two words and setting bit by bit.
        let mut rng = crate::check::SplitMix64::new(29);
        for _ in 0..1000 {
            let vars = 1 + rng.next_u64() as usize % 64;
            let within = u64::MAX >> (64 - vars);
            let bitset = [rng.next_u64() & within, 0];
            let first = rng.next_u64() as usize % vars;
            assert_eq!(
                super::bits_from(&bitset, first),
                super::bits_from_words(&bitset, first)
            );
            let bits = rng.next_u64() & within >> first;
            let mut set = bitset;
            super::set_bits_from(&mut set, first, bits);
            let mut expected = bitset;
            for k in crate::domain::ones(bits) {
                expected[0] |= 1 << (first + k);
            }
            assert_eq!(set, expected, "{first}: {bits:#x}");
        }
    }

    #[test]
    fn fixed_range_reads_across_word_boundaries() {
        // 200 variables, every third one fixed: any slice of up to 64 of
        // them, wherever it starts, reads the same as testing each domain.
        let mut doms: Vec<u64> = (0..200).map(|i| if i % 3 == 0 { 4 } else { 6 }).collect();
        let mut fixed = vec![0u64; fixed_words(200)];
        fixed_bits(&doms, &mut fixed);
        let wakeups = Wakeups {
            masks: &[],
            bounds: &[],
            list: &[],
            wakes_open: &[],
        };
        let (mut queue, mut fixed_woken) = ([0u64; 1], [0u64; 1]);
        let cells = Cell::from_mut(&mut queue[..]).as_slice_of_cells();
        let woken = Cell::from_mut(&mut fixed_woken[..]).as_slice_of_cells();
        let ctx = Untraced::new(
            &mut doms,
            &mut fixed,
            &mut [],
            Lists::groups(&[]),
            &NO_TAGS,
            wakeups,
            Words::<true> {
                queue: cells,
                fixed_woken: woken,
            },
        );
        for first in 0..200 {
            for n in 1..=64.min(200 - first) {
                let expected = (0..n)
                    .filter(|k| (first + k) % 3 == 0)
                    .fold(0u64, |m, k| m | 1 << k);
                assert_eq!(ctx.fixed_range(first, n), expected, "{first} + {n}");
            }
        }
    }

    #[test]
    fn a_fixed_variable_marks_the_propagators_it_wakes_with_masks_and_with_lists() {
        // Variable 0's subscribers: 3 and 70 to any change, 130 to bounds,
        // 200 and 250 to fixed. Queues of 5 words woken from lists, of 4
        // from masks, and (without rounds) of 4 that mark nothing.
        let (changed, bounds, fixed): (&[u32], &[u32], &[u32]) = (&[3, 70], &[130], &[200, 250]);
        let list: Vec<u32> = [changed, bounds, fixed].concat();
        let ends = [0, 2, 3, 5];
        let mut masks = [0u64; 3 * 4];
        for (event, subscribers) in [changed, bounds, fixed].iter().enumerate() {
            // Each bucket holds the subscribers of its event and the weaker.
            for e in event..3 {
                for &p in *subscribers {
                    masks[e * 4 + p as usize / 64] |= 1 << (p % 64);
                }
            }
        }
        for (words, from_lists, rounds) in [(5, true, true), (4, false, true), (4, false, false)] {
            let wakeups = Wakeups {
                masks: if from_lists { &[] } else { &masks },
                bounds: if from_lists { &ends } else { &[] },
                list: if from_lists { &list } else { &[] },
                wakes_open: &[],
            };
            for event in 0..3 {
                let (mut queue, mut woken) = (vec![0u64; words], vec![0u64; words]);
                let cells = Cell::from_mut(&mut queue[..]).as_slice_of_cells();
                let marks = Cell::from_mut(&mut woken[..]).as_slice_of_cells();
                if rounds {
                    let q = Words::<true> {
                        queue: cells,
                        fixed_woken: marks,
                    };
                    wakeups.queue_event(q, 0, event);
                } else {
                    let q = Words::<false> {
                        queue: cells,
                        fixed_woken: &[],
                    };
                    wakeups.queue_event(q, 0, event);
                }
                let set = |ids: &[u32]| {
                    let mut bits = vec![0u64; words];
                    for &p in ids {
                        bits[p as usize / 64] |= 1 << (p % 64);
                    }
                    bits
                };
                let woke: Vec<u32> = list[..ends[event + 1] as usize].to_vec();
                assert_eq!(queue, set(&woke), "{words} words, event {event}");
                let marked = if event == 2 && rounds {
                    woke
                } else {
                    Vec::new()
                };
                assert_eq!(woken, set(&marked), "{words} words, event {event}");
            }
        }
    }
}
