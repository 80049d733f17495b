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
//! use bitfd::propagators::{Ctx, Event, Propagation, Propagator, Status, Subscriptions};
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
use std::sync::Arc;

use crate::domain::Domain;
use crate::engine::make_room;
use crate::model::VarId;

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

pub(crate) use all_different::{AllDifferentDomain, AllDifferentValue, ones};
pub(crate) use distance::Distance;
pub(crate) use each_value_held::EachValueHeld;
pub(crate) use equal::Equal;
pub(crate) use in_set::InSet;
pub(crate) use less::Less;
pub(crate) use not_distance::NotDistance;
pub(crate) use offset::Offset;

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

/// Where a group propagator's variables are in the engine's list of every
/// group's variables (see [`Subscriptions::copy_groups`]): `len` of them from
/// `start`. The propagator reads them through its run's context
/// ([`Ctx::group`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Group {
    /// The first variable's place in the list.
    pub(crate) start: u32,
    /// The number of variables.
    pub(crate) len: u32,
}

impl Group {
    /// The number of variables.
    #[inline(always)]
    pub(crate) fn len(self) -> usize {
        self.len as usize
    }

    /// The places of the variables in the list.
    #[inline(always)]
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }

    /// The variables, in `list` (the list the group was added to).
    #[inline(always)]
    pub(crate) fn of(self, list: &[VarId]) -> &[VarId] {
        &list[self.range()]
    }
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

/// Receives every domain narrowing as it happens (the trace hooks in here).
pub(crate) trait PruneSink {
    /// `x` went from `before` to `after` (a strict, non-empty subset).
    fn pruned(&mut self, x: VarId, before: Domain, after: Domain);
}

/// Who to queue when a variable changes, as [`Ctx`] needs it: subscriber
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
    pub(crate) weak: &'a [u64],
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

/// Narrows `doms[i]` to the values also in `keep`, as every restrict
/// does: `None` if that changes nothing, else the old and the new domain;
/// a conflict, with the domain unchanged, if no value would be left.
#[inline(always)]
fn narrow(doms: &mut [u64], i: usize, keep: Domain) -> Result<Option<(u64, u64)>, Conflict> {
    let old = doms[i];
    let new = old & keep.bits();
    if new == old {
        return Ok(None);
    }
    if new == 0 {
        return Err(Conflict);
    }
    doms[i] = new;
    Ok(Some((old, new)))
}

/// The event of variable `i` now `new`, as an index into its three
/// buckets (0 a value removed, 1 a bound moved as `moved` says, 2 fixed),
/// marking it in `fixed` if it is fixed. The bounds are looked at only when
/// not fixed.
#[inline(always)]
fn mark_event(fixed: &mut [u64], i: usize, new: u64, moved: impl FnOnce() -> bool) -> usize {
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
/// difference, and the bounds are not looked at (in the Oz zebra, about
/// half the narrowings behind the quiet door leave the variable open).
///
/// Used by the quiet door alone ([`Quiet`], [`QuietBlock`]), which the
/// untraced runs with a one-word queue take (the small propagators, both
/// all-differents, the search's decisions). [`Ctx::restrict`] (traced runs,
/// queues of several words, each-value-held) keeps [`mark_event`]: there
/// the extra reads measured a little dearer than the bounds test they save.
#[inline(always)]
fn one_word_woken(masks: &[u64], fixed: &mut [u64], i: usize, old: u64, new: u64) -> u64 {
    // One bounds test for the three buckets. (While the quiet door copied
    // the context's slices out up front, this read cost two more saved
    // registers a run than a read on each path; since the door reads them
    // where used, it is the cheaper: Oz zebra 299 instructions fewer.)
    let Some(&[changed, bounds, on_fixed]) = masks.get(3 * i..3 * i + 3) else {
        unreachable!("every variable has its three buckets")
    };
    // `new` is not empty, so one value or less is one value. (Not
    // `Domain::is_fixed`: here `x & (x - 1) == 0` stays two instructions,
    // no population count, against its five, and a caller testing its
    // narrowed domain the same way shares them: Oz zebra 48,841 -> 47,585
    // instructions, classic zebra 41,165 -> 40,833, 10-queens 0.2% fewer.)
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
    pub(crate) fn wake(
        &self,
        queue: &[Cell<u64>],
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
    /// removed, 1 a bound moved, 2 fixed).
    #[inline(always)]
    fn queue_event(&self, queue: &[Cell<u64>], i: usize, event: usize) {
        if let [word] = queue {
            word.set(word.get() | self.masks[3 * i + event]);
        } else {
            self.queue_event_words(queue, i, event);
        }
    }

    /// [`Wakeups::queue_event`] for a queue of several words: out of line,
    /// so that the one-word case, inlined into every propagator, stays
    /// small.
    #[cold]
    #[inline(never)]
    fn queue_event_words(&self, queue: &[Cell<u64>], i: usize, event: usize) {
        let words = queue.len();
        if words <= MASK_WORDS {
            let mask = &self.masks[(3 * i + event) * words..][..words];
            for (q, m) in queue.iter().zip(mask) {
                q.set(q.get() | m);
            }
            return;
        }
        let b = &self.bounds[3 * i..3 * i + 4];
        for &p in &self.list[b[0] as usize..b[event + 1] as usize] {
            let q = &queue[(p >> 6) as usize];
            q.set(q.get() | 1u64 << (p & 63));
        }
    }
}

/// `Some(first)` when `vars` are the variables `first, first + 1, ...` in
/// order (a group declared together, as most are): a propagator may then
/// read their fixed ones as one slice of the fixed-variable bitset
/// ([`Ctx::fixed_range`]) and narrow their domains as one block
/// ([`Ctx::block`]).
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
/// [`Ctx::fixed_range`] reads two words without a test.
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
        // Measured, with the `memset` gone: a classic zebra build (25
        // variables) 111 instructions fewer, of 7,448.
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
fn bits_from(bitset: &[u64], first: usize) -> u64 {
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
fn bits_from_words(bitset: &[u64], first: usize) -> u64 {
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
fn set_bits_from(bitset: &mut [u64], first: usize, bits: u64) {
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
/// place without waking anyone ([`Ctx::block`]), with what a propagator
/// needs to know of them first.
pub(crate) struct Block<'b> {
    /// The domains, as raw bits: `doms[k]` is variable `first + k`'s.
    pub(crate) doms: &'b mut [u64],
    /// Bit `k` set: variable `first + k` is fixed.
    pub(crate) fixed: u64,
    /// Bit `k` set: some propagator subscribes to `Changed` or `Bounds` of
    /// variable `first + k` (see [`Wakeups::weak`]).
    pub(crate) weak: u64,
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
    /// only when `quiet` is `Some` (see [`AnyPropagator::runner`]).
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
    fn quiet_known(&mut self) -> Quiet<'_, 'a> {
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
            for k in all_different::ones(wake) {
                queue.set(queue.get() | masks[3 * k + event(k)]);
            }
            return;
        }
        for k in all_different::ones(wake) {
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

/// What the propagators of one or two variables (equal, offset, distance,
/// not-distance, less, in-set) and the small value all-differents do with
/// the domains: read one, narrow one (and, for the all-different, read the
/// fixed bits and its state word).
///
/// [`Ctx`] does it in every case. [`Quiet`] does it for the common run,
/// which no trace records and whose queue is one word, and then makes no
/// call: a call anywhere in an inlined [`Ctx::restrict`], however cold,
/// makes the propagator save and restore callee-saved registers on every
/// run. So these propagators are written once, generic over this
/// trait: their runner ([`AnyPropagator::runner`]), which the engine
/// calls only for the runs that may take the quiet door, hands them a
/// [`Quiet`]; every other run hands them the [`Ctx`] (through
/// [`AnyPropagator::propagate`]).
pub(crate) trait Narrow {
    /// The current domain of `x` ([`Ctx::dom`]).
    fn dom(&self, x: VarId) -> Domain;

    /// Narrows `x` to the values also in `keep` ([`Ctx::restrict`]).
    fn restrict(&mut self, x: VarId, keep: Domain) -> Result<bool, Conflict>;

    /// The bounds of `x` ([`Ctx::bounds`]).
    #[inline(always)]
    fn bounds(&self, x: VarId) -> Result<(u8, u8), Conflict> {
        let d = self.dom(x);
        match (d.min(), d.max()) {
            (Some(lo), Some(hi)) => Ok((lo, hi)),
            _ => Err(Conflict),
        }
    }

    /// Removes the values below `v` from `x` ([`Ctx::at_least`]).
    #[inline(always)]
    fn at_least(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        self.restrict(x, Domain::FULL.at_least(v))
    }

    /// Removes the values above `v` from `x` ([`Ctx::at_most`]).
    #[inline(always)]
    fn at_most(&mut self, x: VarId, v: i32) -> Result<bool, Conflict> {
        self.restrict(x, Domain::FULL.at_most(v))
    }

    /// The fixed variables among `first..first + n` ([`Ctx::fixed_range`]).
    fn fixed_range(&self, first: usize, n: usize) -> u64;

    /// The running propagator's first state word
    /// ([`Ctx::first_state_word`]).
    fn first_state_word(&mut self) -> &mut u64;
}

impl Narrow for Ctx<'_> {
    #[inline(always)]
    fn dom(&self, x: VarId) -> Domain {
        Ctx::dom(self, x)
    }

    #[inline(always)]
    fn restrict(&mut self, x: VarId, keep: Domain) -> Result<bool, Conflict> {
        Ctx::restrict(self, x, keep)
    }

    #[inline(always)]
    fn fixed_range(&self, first: usize, n: usize) -> u64 {
        Ctx::fixed_range(self, first, n)
    }

    #[inline(always)]
    fn first_state_word(&mut self) -> &mut u64 {
        Ctx::first_state_word(self)
    }
}

/// [`Ctx`] for a run no trace records, with a one-word queue (see
/// [`Narrow`]): its narrowing wakes the subscribers with one OR into the
/// queue word and reports to no one.
///
/// It borrows the context rather than copying its slices out, so that
/// each is read where it is used: the fixed bitset and the masks only
/// when a narrowing happens (a small propagator's run narrows one
/// variable or none), not all up front, where they held registers the
/// propagator then saved and restored on every run (measured: Oz zebra
/// 51,386 -> 50,816 instructions; equal, distance and less 1 to 7 a run
/// cheaper). The queue word too is read from the context when a narrowing
/// wakes (its `first_word`), not held from the start: `equal` then saves
/// one register, not three (Oz zebra 46,286 -> 45,695, classic zebra
/// 36,830 -> 36,559).
pub(crate) struct Quiet<'c, 'a> {
    /// The context, whose `quiet` is `Some(queue)`: its `first_word` is
    /// then the queue's only word.
    ctx: &'c mut Ctx<'a>,
}

impl Narrow for Quiet<'_, '_> {
    #[inline(always)]
    fn dom(&self, x: VarId) -> Domain {
        self.ctx.dom(x)
    }

    /// As [`Ctx::restrict`], which wakes and marks the same way.
    #[inline(always)]
    fn restrict(&mut self, x: VarId, keep: Domain) -> Result<bool, Conflict> {
        let i = x.index();
        let Some((old, new)) = narrow(self.ctx.doms, i, keep)? else {
            return Ok(false);
        };
        let woken = one_word_woken(self.ctx.wakeups.masks, self.ctx.fixed, i, old, new);
        // The queue word read here, where used (see [`Quiet`]).
        let queue = self.ctx.first_word;
        queue.set(queue.get() | woken);
        Ok(true)
    }

    #[inline(always)]
    fn fixed_range(&self, first: usize, n: usize) -> u64 {
        bits_from(self.ctx.fixed, first) & (u64::MAX >> (64 - n))
    }

    #[inline(always)]
    fn first_state_word(&mut self) -> &mut u64 {
        self.ctx.first_state_word()
    }
}

/// The domains of the variables from `first` on, narrowed behind the
/// quiet door ([`Ctx::quiet_block`]): each narrowing wakes the subscribers
/// and marks a variable it fixes as [`Quiet::restrict`] does.
///
/// Like [`Quiet`], it borrows the context rather than copying its slices
/// out, so that each is read where it is used: the masks and the fixed
/// bitset only when a narrowing happens, the state word when the run
/// reads and writes it (measured: Oz zebra, whose value all-differents run
/// on such blocks, 50,368 -> 49,823 instructions).
pub(crate) struct QuietBlock<'c, 'a> {
    /// The context, whose `quiet` is `Some(queue)`: its `first_word` is
    /// then the queue's only word, read when a narrowing wakes someone (as
    /// [`Quiet`] does; measured: classic zebra 39 instructions fewer).
    ctx: &'c mut Ctx<'a>,
    /// The block's first variable.
    first: usize,
}

impl QuietBlock<'_, '_> {
    /// The domain of variable `first + k`, as raw bits.
    #[inline(always)]
    pub(crate) fn dom(&self, k: usize) -> u64 {
        self.ctx.doms[self.first + k]
    }

    /// The domains of the variables from `first` on, as raw bits.
    #[inline(always)]
    pub(crate) fn doms(&self) -> &[u64] {
        &self.ctx.doms[self.first..]
    }

    /// Bit `k` set: variable `first + k` (`k < 64`) is fixed.
    #[inline(always)]
    pub(crate) fn fixed(&self) -> u64 {
        bits_from(self.ctx.fixed, self.first)
    }

    /// The running propagator's first state word ([`Ctx::first_state_word`]).
    #[inline(always)]
    pub(crate) fn first_state_word(&mut self) -> &mut u64 {
        self.ctx.first_state_word()
    }

    /// Narrows variable `first + k` from `old`, its domain, to `new`, a
    /// non-empty strict subset of it, and wakes its subscribers.
    #[inline(always)]
    pub(crate) fn narrow(&mut self, k: usize, old: u64, new: u64) {
        let i = self.first + k;
        self.ctx.doms[i] = new;
        let woken = one_word_woken(self.ctx.wakeups.masks, self.ctx.fixed, i, old, new);
        let queue = self.ctx.first_word;
        queue.set(queue.get() | woken);
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
    use super::{Ctx, Wakeups, fixed_bits, fixed_words};
    use crate::domain::Domain;
    use crate::model::VarId;

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
                weak: &[],
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
            for k in super::all_different::ones(wake) {
                let x = first + k;
                let cells = std::cell::Cell::from_mut(&mut queue[..]).as_slice_of_cells();
                wakeups.wake(cells, &mut marks, x, old[x], doms[x]);
            }
            let (mut block_queue, mut block_marks) =
                (vec![0u64; words], vec![0u64; fixed_words(100)]);
            let mut ctx = Ctx::new(
                &mut doms,
                &mut block_marks,
                &mut [],
                &mut block_queue,
                wakeups,
                None,
            );
            ctx.wake_block(first, wake, moved, fixed);
            assert_eq!((block_queue, block_marks), (queue, marks), "{first} + {n}");
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
            for k in super::ones(bits) {
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
            weak: &[],
        };
        let mut queue = [0u64; 1];
        let ctx = Ctx::new(&mut doms, &mut fixed, &mut [], &mut queue, wakeups, None);
        for first in 0..200 {
            for n in 1..=64.min(200 - first) {
                let expected = (0..n)
                    .filter(|k| (first + k) % 3 == 0)
                    .fold(0u64, |m, k| m | 1 << k);
                assert_eq!(ctx.fixed_range(first, n), expected, "{first} + {n}");
            }
        }
    }
}
