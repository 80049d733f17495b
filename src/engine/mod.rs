//! [`Engine`]: the domains, the propagators and the queue that runs them to
//! a fixpoint.
//!
//! # Words used here
//!
//! * **state**: one `Vec<u64>` holding the domains (a word a variable), the
//!   fixed-variable bitset, then the propagators' state words. Search saves
//!   and restores it whole; nothing is trailed.
//! * **queue**: a bitset over propagators in queue order; the lowest queued
//!   one runs next, but for rounds in the most costly class of a queue of
//!   more than one word (see Scheduling). One word for at most 64
//!   propagators, more beyond.
//! * **priority class**: a propagator's cost ([`Priority`]); queue order is
//!   class first, posting order inside a class.
//! * **wake-up**: a narrowing queues the propagators subscribed to the event
//!   it is (fixed ⊂ bounds ⊂ any change), from subscriber masks (a bitset
//!   a variable and event, up to four queue words) or from lists.
//! * **untraced / traced context**: the two implementations of the
//!   narrowing interface ([`Narrow`](crate::propagator::Narrow)); the
//!   traced one also reports every narrowing to the observer. The
//!   observer's type picks one at compile time.
//! * **runner**: the function that runs one kind of propagator in the
//!   untraced one-word context, kept in its slot (no match on the kind).
//! * **lowering**: turning a constraint into its propagator, with post-time
//!   simplification (`lower.rs`).
//! * **redundant**: an each-value-held that a domain all-different on the
//!   same permutation makes useless; it runs only while that one is off.
//! * **entailed**: a propagator that can never prune again (not used yet).
//!
//! # Layout
//!
//! * `mod.rs`: [`Engine`], its state, the placing of propagators in queue
//!   order with their subscriptions, switching constraints off and on.
//! * `lower.rs`: constraints to propagators.
//! * `fixpoint.rs`: the one fixpoint loop, generic over the context and the
//!   queue's width.
//!
//! # Scheduling
//!
//! The engine runs the lowest-numbered queued propagator of the cheaper
//! classes first: so every cheaper class runs before a more costly one,
//! and inside a class the earlier-posted constraint runs first. In the most
//! costly class ([`Priority::Quadratic`]) of a model with more than 64
//! propagators, when that class holds built-in propagators only, it runs
//! rounds instead: the lowest queued after the costly propagator that ran
//! last, wrapping around, as a first-in first-out queue would (a sudoku's
//! units wake each other, and lowest first runs the first units again
//! after each later one); and those woken by a variable's being fixed
//! since they last ran go first, in a round of their own (a unit woken by
//! a removal alone then often waits for a fixed variable and runs once for
//! both). This order is fixed by the model alone, so the trace is too;
//! each node's fixpoint starts a new round. A propagator already queued is
//! not queued twice (it is one bit). A propagator that reports
//! [`Status::Fixpoint`](crate::propagator::Status) is taken off the queue
//! again if its own changes put it there. At construction every propagator
//! is queued, so the first [`Engine::propagate`] computes the root
//! fixpoint.

use std::num::NonZeroU32;
use std::sync::Arc;

use arrayvec::ArrayVec;
use fixedbitset::FixedBitSet;

use crate::buffer::make_room;
use crate::domain::{Domain, ones};
use crate::ids::{ConstraintId, Tags, VarId};
use crate::model::{Model, Posted};
use crate::observer::Observer;
use crate::propagator::{
    Event, Lists, MASK_WORDS, Priority, Propagator, Subscriptions, Wakeups, fixed_bits, fixed_words,
};
use crate::propagators::{AnyPropagator, Runner};

mod fixpoint;
mod lower;

pub(crate) use fixpoint::Running;
use lower::{Permutations, lower};

/// The propagation engine for one [`Model`]: current domains, propagators,
/// subscriptions and queue.
///
/// Most users go through [`Solver`](crate::Solver); the engine is the
/// lower-level door for embedders who run their own search.
///
/// ```
/// use bitfd::{Engine, Model};
///
/// let mut m = Model::new();
/// let x = m.int_var("x", 1, 5)?;
/// let y = m.int_var("y", 1, 5)?;
/// m.offset(x, y, 3)?; // x = y + 3
/// let mut engine = Engine::new(&m);
/// assert!(engine.propagate().is_ok());
/// assert_eq!(engine.dom(x).to_string(), "{4,5}");
/// assert_eq!(engine.dom(y).to_string(), "{1,2}");
/// # Ok::<(), bitfd::ModelError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Engine {
    /// The model's tags, for making handles and telling its own from
    /// others'.
    tags: Tags,
    /// The number of variables: `state[..vars]` are the domains.
    vars: usize,
    /// Words of the fixed-variable bitset, `state[vars..vars + fixed_words]`:
    /// bit `i` is set when variable `i` has one value (and a spare zero
    /// word ends it, see `propagator::fixed_words`).
    fixed_words: usize,
    /// The words of one search state: the domains, the fixed-variable
    /// bitset, then the propagators' state words.
    width: usize,
    /// `state[..width]` is the current state; `state[width..2 * width]`
    /// the state at the root, before any propagation. Between calls the
    /// queue is empty and every domain is non-empty, except after a
    /// conflict.
    state: Vec<u64>,
    /// Propagators in queue order, each with its constraint and state words.
    props: Vec<Slot>,
    /// The number of constraints in the model (a constraint simplified
    /// away has no propagator).
    constraints: usize,
    /// With lists (more than [`MASK_WORDS`] queue words; else left as the
    /// last such build left them, and never read): bucket boundaries into
    /// `wake_list`, three buckets a variable:
    /// variable `x`'s `Changed` subscribers are `wake_list[b[3x]..b[3x+1]]`,
    /// `Bounds` ones `..b[3x+2]`, `Fixed` ones `..b[3x+3]`, so that an event
    /// wakes a prefix of the variable's list.
    wake_bounds: Vec<u32>,
    /// With lists: propagator ids, grouped by variable and event as
    /// `wake_bounds` says.
    wake_list: Vec<u32>,
    /// The engine's bitsets and subscriber masks, in one buffer: one
    /// allocation a build, which earns its place on
    /// `zebra/classic/build+all`. First [`BITSETS`] bitsets over propagator ids,
    /// `words` words each:
    /// 1. the queue (waiting to run);
    /// 2. the enabled propagators (a disabled one is never queued; derived
    ///    from the next one and the slots' `redundant_with` by
    ///    `update_enabled`);
    /// 3. the wanted ones (not switched off by the user);
    /// 4. the subscribed ones: those whose subscriptions are in the masks
    ///    or the lists (every one but a redundant propagator that has not
    ///    been enabled yet, see [`Slot::redundant_with`]);
    /// 5. the queued ones that a variable's being fixed woke since they
    ///    last ran (a subset of the queue), which run first in the rounds
    ///    of the most costly class (see Scheduling).
    ///
    /// Then the wakes-open bitset over variables, as many words as the
    /// fixed-variable bitset (`fixed_words`): bit `x` set when some
    /// propagator subscribes to `Changed` or `Bounds` of variable `x` (see
    /// [`Wakeups::wakes_open`]).
    ///
    /// Then, when the queue has at most [`MASK_WORDS`] words, `masks` words
    /// of subscriber masks (see [`Wakeups::masks`]) of the subscribed
    /// propagators; and when some subscribed propagator is disabled, as many
    /// again less the disabled ones, so that a disabled one is never queued.
    bits: Vec<u64>,
    /// Words in each bitset of `bits`.
    words: usize,
    /// Words of subscriber masks (`3 * vars * words`), or 0 with lists.
    masks: usize,
    /// Where the masks that wake propagators start in `bits`: the full ones
    /// (at [`Engine::masks_start`]) or the filtered copy after them.
    masks_at: usize,
    /// Propagator runs so far.
    propagations: u64,
    /// The first propagator of the most costly class ([`Priority::Quadratic`])
    /// when the queue runs that class by rounds (see Scheduling in the
    /// module docs: more than one queue word, built-ins only), or the
    /// number of propagators.
    costly: usize,
    /// Subscriptions, kept only while building (reused by `load`), and
    /// the variables of every group propagator, which they read through
    /// it (see [`Subscriptions::copy_groups`]).
    subs: Subscriptions,
    /// A copy of the model's all-different offsets, lent to every run's
    /// context ([`Lists`]).
    offsets: Vec<i32>,
    /// The model's user propagators, lent to every run's context.
    customs: Vec<Arc<dyn Propagator + Send + Sync>>,
}

/// One propagator as the engine keeps it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slot {
    /// The propagator.
    pub(crate) prop: AnyPropagator,
    /// Runs `prop` untraced with a one-word queue ([`Runner`]).
    pub(crate) run: Runner,
    /// The constraint it enforces.
    pub(crate) origin: ConstraintId,
    /// Its cost class: the queue runs the classes in order, and posting
    /// order within a class.
    priority: Priority,
    /// Where its state words are among the propagators' state words (which
    /// follow the domains in a search state).
    pub(crate) words: (u32, u32),
    /// One more than `by` when this propagator (an each-value-held) prunes
    /// nothing that propagator `by` (a domain all-different on the same
    /// permutation) does not: it runs only while `by` is switched off, and
    /// subscribes only when it is first enabled (see
    /// [`Permutations::redundant_with`] and [`Slot::redundant_with`]). Kept
    /// as `by + 1` so that the `Option` takes no word of its own and a slot
    /// fits in 64 bytes (asserted below): the engine's load copies every
    /// slot (this earns its place on `zebra-classic-value` in
    /// `scripts/icount`).
    redundant: Option<NonZeroU32>,
}

// The size `Slot::redundant` keeps it to, on 64-bit targets.
const _: () = assert!(size_of::<Slot>() <= 64);

impl Slot {
    /// Its place in queue order: priority class, then constraint id.
    fn key(&self) -> u64 {
        queue_key(self.priority as u64, self.origin)
    }

    /// The propagator that makes this one redundant, if one does.
    fn redundant_with(&self) -> Option<usize> {
        self.redundant.map(|by| by.get() as usize - 1)
    }
}

/// The bitsets at the front of [`Engine`]'s `bits`: queue, enabled, wanted,
/// subscribed, woken by a fixed variable.
const BITSETS: usize = 5;

/// The place of the woken-by-a-fixed-variable bitset among [`BITSETS`].
const FIXED_WOKEN: usize = 4;

impl Engine {
    /// Builds the engine for `model`, with every propagator queued.
    pub fn new(model: &Model) -> Engine {
        let mut engine = Engine::unloaded();
        engine.load(model);
        engine
    }

    /// An engine with no model yet, all storage empty: [`Engine::load`]
    /// makes it one. Building in place this way spares the copies of a
    /// finished engine into its owner.
    pub(crate) fn unloaded() -> Engine {
        Engine {
            tags: Tags::new(0),
            vars: 0,
            fixed_words: 0,
            width: 0,
            state: Vec::new(),
            props: Vec::new(),
            constraints: 0,
            wake_bounds: Vec::new(),
            wake_list: Vec::new(),
            bits: Vec::new(),
            words: 0,
            masks: 0,
            masks_at: 0,
            propagations: 0,
            costly: 0,
            subs: Subscriptions::default(),
            offsets: Vec::new(),
            customs: Vec::new(),
        }
    }

    /// Makes this engine the engine for `model`, as [`Engine::new`] would
    /// build it, but reusing the storage it already has: a generator that
    /// checks many models of one size allocates nothing after the first.
    pub fn load(&mut self, model: &Model) {
        let vars = model.len();
        self.tags.clone_from(model.tags());
        self.vars = vars;
        self.fixed_words = fixed_words(vars);
        self.propagations = 0;
        self.constraints = model.constraint_count();
        let state_words = self.place(model);
        self.mark_wakes_open();
        self.fill_state(model.domains(), state_words);

        // Every enabled propagator queued.
        let words = self.words;
        match &mut self.bits[..2 * words] {
            [queue, enabled] => *queue = *enabled,
            both => both.copy_within(words.., 0),
        }
    }

    /// Writes the current state and the root state, both from the model's
    /// initial domains `domains`, with `state_words` propagator state words
    /// (zero).
    #[inline(never)]
    fn fill_state(&mut self, domains: &[Domain], state_words: usize) {
        let vars = self.vars;
        let width = vars + self.fixed_words + state_words;
        self.width = width;
        make_room(&mut self.state, 2 * width);
        self.state.extend(domains.iter().map(|d| d.bits()));
        self.state.resize(width, 0);
        let (doms, rest) = self.state.split_at_mut(vars);
        fixed_bits(doms, &mut rest[..self.fixed_words]);
        self.state.extend_from_within(..width);
    }

    /// Fills `props` with the propagators of `model`'s constraints in queue
    /// order (by priority class, posting order inside a class), lays out
    /// `bits` for them and writes their subscriptions, into masks or lists
    /// as their number says; returns how many state words they keep.
    fn place(&mut self, model: &Model) -> usize {
        self.subs.copy_groups(model.group_vars());
        make_room(&mut self.offsets, model.offset_list().len());
        self.offsets.extend_from_slice(model.offset_list());
        self.customs.clear();
        self.customs.extend_from_slice(model.customs());
        make_room(&mut self.props, model.constraint_count());
        for (id, c) in model.constraint_ids().zip(model.posted()) {
            if let Some(prop) = lower(c, model) {
                let (priority, state_words, run) = prop.shape(&self.customs);
                self.props.push(Slot {
                    run,
                    prop,
                    origin: id,
                    priority,
                    // The state words' place once in queue order.
                    words: (0, state_words as u32),
                    redundant: None,
                });
            }
        }
        in_queue_order(&mut self.props);
        self.lay_out(self.props.len());
        let class_start =
            |class: Priority| self.props.partition_point(|slot| slot.priority < class);
        let (linear, costly) = (
            class_start(Priority::Linear),
            class_start(Priority::Quadratic),
        );
        // Rounds only in a queue of several words, and only through
        // built-in propagators: a custom one's cost within its class is
        // unknown, and lowest first keeps one posted last (a sudoku's band
        // intersections, far more costly a run than an all-different) waiting
        // until the others settle.
        let built_in = |slot: &Slot| !matches!(slot.prop, AnyPropagator::Custom(_));
        self.costly = if self.words > 1 && self.props[costly..].iter().all(built_in) {
            costly
        } else {
            self.props.len()
        };
        if costly < self.props.len() {
            self.find_redundant(model, linear, costly);
        }
        let words = self.words;
        let with_masks = words <= MASK_WORDS;
        if with_masks {
            self.subs.write_masks(&mut self.bits, self.masks_at, words);
        } else {
            let occurrences: usize = model.posted().iter().map(Posted::arity).sum();
            self.subs.clear();
            self.subs.reserve(occurrences);
        }
        let mut next_word = 0;
        for (p, slot) in self.props.iter_mut().enumerate() {
            let state_words = slot.words.1;
            slot.words = (next_word, next_word + state_words);
            next_word += state_words;
            if with_masks && slot.redundant.is_some() {
                continue;
            }
            self.subs.begin(p as u32);
            slot.prop.subscribe(&mut self.subs, &self.customs);
        }
        if with_masks {
            self.subs.take_masks(&mut self.bits);
        } else {
            self.fill_wake_lists();
        }
        next_word as usize
    }

    /// Sorts the subscriptions collected into the wake lists.
    fn fill_wake_lists(&mut self) {
        // A counting sort: `wake_bounds[b + 1]` counts bucket b's
        // subscribers, prefix sums make `wake_bounds[b]` bucket b's start;
        // filling moves it to the bucket's end, which is the next bucket's
        // start, so one shift right restores the starts.
        let vars = self.vars;
        self.wake_bounds.clear();
        self.wake_bounds.resize(vars * 3 + 1, 0);
        for &(x, e, _) in self.subs.all() {
            self.wake_bounds[bucket(x, e) + 1] += 1;
        }
        for b in 1..self.wake_bounds.len() {
            self.wake_bounds[b] += self.wake_bounds[b - 1];
        }
        self.wake_list.clear();
        self.wake_list.resize(self.subs.len(), 0);
        for &(x, e, p) in self.subs.all() {
            let b = bucket(x, e);
            self.wake_list[self.wake_bounds[b] as usize] = p;
            self.wake_bounds[b] += 1;
        }
        self.wake_bounds.copy_within(..vars * 3, 1);
        self.wake_bounds[0] = 0;
    }

    /// Lays out `bits` for `n` propagators (see [`Engine`]'s field): every
    /// one wanted, enabled and subscribed, masks (when they serve) empty.
    #[inline(always)]
    fn lay_out(&mut self, n: usize) {
        let words = n.div_ceil(64);
        self.words = words;
        let header = self.masks_start();
        self.masks = if words <= MASK_WORDS {
            3 * self.vars * words
        } else {
            0
        };
        self.masks_at = header;
        make_room(&mut self.bits, header + self.masks);
        self.bits.resize(header + self.masks, 0);
        for w in 0..words {
            let all = if 64 * (w + 1) <= n {
                u64::MAX
            } else {
                (1u64 << (n % 64)) - 1
            };
            // Enabled, wanted and subscribed (the sets between the queue
            // and the woken by a fixed variable, which stay empty).
            for set in 1..FIXED_WOKEN {
                self.bits[set * words + w] = all;
            }
        }
    }

    /// Marks each each-value-held propagator that a domain all-different
    /// makes redundant (see [`Permutations::redundant_with`]) with that
    /// all-different's propagator, and takes it out of the enabled bitset:
    /// it runs only while that all-different is switched off. With masks,
    /// also out of the subscribed one, as it subscribes only when first
    /// enabled ([`Engine::update_enabled`]). The linear class
    /// (each-value-helds among them) starts at propagator `linear`, the most
    /// costly (domain all-differents among them, the last propagators) at
    /// `costly`.
    fn find_redundant(&mut self, model: &Model, linear: usize, costly: usize) {
        let words = self.words;
        let (cheap, costly_props) = self.props.split_at_mut(costly);
        let mut permutations = Permutations::new(costly_props);
        for (p, slot) in (linear..).zip(&mut cheap[linear..]) {
            let AnyPropagator::EachValueHeld(held) = &slot.prop else {
                continue;
            };
            let Some(by) = permutations.redundant_with(held, self.subs.groups(), model.domains())
            else {
                continue;
            };
            slot.redundant = NonZeroU32::new((costly + by + 1) as u32);
            let (w, off) = (p / 64, !(1u64 << (p % 64)));
            self.bits[words + w] &= off;
            if words <= MASK_WORDS {
                self.bits[3 * words + w] &= off;
            }
        }
    }

    /// The number of variables.
    pub fn len(&self) -> usize {
        self.vars
    }

    /// Whether the model has no variables.
    pub fn is_empty(&self) -> bool {
        self.vars == 0
    }

    /// The current domain of `x`.
    ///
    /// # Panics
    ///
    /// If `x` is not a variable of the engine's model.
    #[inline]
    pub fn dom(&self, x: VarId) -> Domain {
        self.assert_own(x);
        Domain::from_bits(self.state[x.index()])
    }

    /// Panics unless `x` is a variable of the engine's model.
    fn assert_own(&self, x: VarId) {
        assert!(
            self.tags.owns_var(x, self.vars),
            "variable #{} belongs to another model",
            x.index()
        );
    }

    /// Panics unless `c` was posted to the engine's model.
    fn assert_own_constraint(&self, c: ConstraintId) {
        assert!(
            self.tags.owns_constraint(c, self.constraints),
            "constraint #{} was not posted to this engine's model",
            c.index()
        );
    }

    /// The tags of the model the engine was built from.
    pub(crate) fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The variable with declaration index `i`.
    ///
    /// # Panics
    ///
    /// If `i` is not below [`Engine::len`].
    pub fn var_at(&self, i: usize) -> VarId {
        assert!(i < self.vars, "variable index out of range");
        self.tags.var(i as u32)
    }

    /// The current domains, indexed by [`VarId::index`].
    pub fn domains(&self) -> impl ExactSizeIterator<Item = Domain> + '_ {
        self.state[..self.vars]
            .iter()
            .map(|&d| Domain::from_bits(d))
    }

    /// The current domains as bits, indexed by [`VarId::index`].
    #[inline]
    pub(crate) fn domain_bits(&self) -> &[u64] {
        &self.state[..self.vars]
    }

    /// The fixed-variable bitset: bit `i` set when variable `i` has one
    /// value (exact between propagations that end without a conflict).
    #[cfg(test)]
    pub(crate) fn fixed_bits(&self) -> &[u64] {
        &self.state[self.vars..self.vars + self.fixed_words]
    }

    /// The number of propagator runs since the engine was built.
    pub fn propagations(&self) -> u64 {
        self.propagations
    }

    /// The number of propagators (a constraint simplified away has none).
    pub fn propagator_count(&self) -> usize {
        self.props.len()
    }

    /// Narrows `x` to the values also in `keep`, queuing its subscribers (a
    /// search decision, or a user's own). Returns false, leaving the domain
    /// as it was, if no value would be left.
    ///
    /// # Panics
    ///
    /// If `x` is not a variable of the engine's model.
    #[inline]
    pub fn restrict(&mut self, x: VarId, keep: Domain) -> bool {
        self.assert_own(x);
        let (state, mut running) = self.running();
        running.restrict(state, x, keep)
    }

    /// Runs queued propagators until none is queued (a fixpoint) or one fails.
    ///
    /// Postcondition: the queue is empty, also after a conflict.
    ///
    /// # Errors
    ///
    /// The constraint whose propagator found the conflict. The domains are
    /// then partly narrowed: restore a saved state before going on.
    pub fn propagate(&mut self) -> Result<(), ConstraintId> {
        self.propagate_observed(&mut ())
    }

    /// [`Engine::propagate`], reporting runs, prunings and the conflict to
    /// `observer`.
    ///
    /// # Errors
    ///
    /// As [`Engine::propagate`].
    #[inline(always)]
    pub fn propagate_observed<O: Observer>(
        &mut self,
        observer: &mut O,
    ) -> Result<(), ConstraintId> {
        let (state, mut running) = self.running();
        running.propagate_after(state, None, observer)
    }

    /// The current state ([`Engine::state_len`] words) and the parts of the
    /// engine that propagating touches, borrowed once for a run of nodes: a
    /// search then reaches the queue and the propagators without slicing
    /// the engine's buffers again at each node, and may keep the states it
    /// works on elsewhere.
    #[inline(always)]
    pub(crate) fn running(&mut self) -> (&mut [u64], Running<'_>) {
        let width = self.width;
        let (state, running) = self.buffers();
        (&mut state[..width], running)
    }

    /// The number of `u64` words [`Engine::save`] writes.
    pub fn state_len(&self) -> usize {
        self.width
    }

    /// The current state, as [`Engine::save`] copies it.
    pub(crate) fn current_state(&self) -> &[u64] {
        &self.state[..self.width]
    }

    /// Copies the current state (domains and propagator state) into `into`,
    /// which must be [`Engine::state_len`] words long.
    ///
    /// # Panics
    ///
    /// If `into` has the wrong length.
    #[inline]
    pub fn save(&self, into: &mut [u64]) {
        into.copy_from_slice(self.current_state());
    }

    /// Makes a state saved by [`Engine::save`] current again, with an empty
    /// queue.
    ///
    /// # Panics
    ///
    /// If `from` has the wrong length.
    #[inline]
    pub fn restore(&mut self, from: &[u64]) {
        self.state[..self.width].copy_from_slice(from);
        // One queue word (the common case) without a call to `memset`; a
        // one-word queue is never run by rounds (see Scheduling), so only
        // a wider one marks propagators woken by a fixed variable.
        let words = self.words;
        match &mut self.bits[..words] {
            [word] => *word = 0,
            queue => {
                queue.fill(0);
                self.bits[FIXED_WOKEN * words..][..words].fill(0);
            }
        }
    }

    /// Goes back to the root: the model's initial domains, every enabled
    /// propagator queued, as after [`Engine::new`].
    pub fn reset(&mut self) {
        self.state.copy_within(self.width..2 * self.width, 0);
        let words = self.words;
        self.bits.copy_within(words..2 * words, 0);
        self.bits[FIXED_WOKEN * words..][..words].fill(0);
    }

    /// The whole state buffer (the current state, then the root's) and the
    /// parts of the engine that propagating touches, as
    /// [`Engine::running`] gives them.
    #[inline(always)]
    fn buffers(&mut self) -> (&mut Vec<u64>, Running<'_>) {
        let Bits {
            queue,
            enabled,
            fixed_woken,
            wakes_open,
            masks,
        } = split_bits(
            &mut self.bits,
            self.words,
            self.fixed_words,
            self.masks_at,
            self.masks,
        );
        // With masks, a disabled propagator is never queued (see
        // `update_enabled`); with lists it may be, and is dropped when popped.
        let enabled = if self.words <= MASK_WORDS {
            None
        } else {
            Some(enabled)
        };
        // Only a queue run by rounds marks the propagators a fixed variable
        // woke (see Scheduling).
        let fixed_woken = if self.costly < self.props.len() {
            fixed_woken
        } else {
            &mut []
        };
        let running = Running {
            vars: self.vars,
            fixed_words: self.fixed_words,
            tags: &self.tags,
            queue,
            fixed_woken,
            enabled,
            wakeups: Wakeups {
                masks,
                bounds: &self.wake_bounds,
                list: &self.wake_list,
                wakes_open,
            },
            props: &self.props,
            costly: self.costly,
            lists: Lists {
                groups: self.subs.groups(),
                offsets: &self.offsets,
                customs: &self.customs,
            },
            propagations: &mut self.propagations,
        };
        (&mut self.state, running)
    }

    /// Switches constraint `c` on or off; takes effect at the next
    /// [`Engine::reset`]. A generator that drops clues one at a time builds
    /// the engine once and switches clues off instead of rebuilding.
    /// Returns false if `c` has no propagator (it was simplified away).
    ///
    /// # Panics
    ///
    /// If `c` was not posted to the engine's model.
    pub fn set_enabled(&mut self, c: ConstraintId, on: bool) -> bool {
        self.assert_own_constraint(c);
        let Some(p) = self.prop_of(c) else {
            return false;
        };
        let (word, bit) = (2 * self.words + p / 64, p % 64);
        if on {
            self.bits[word] |= 1 << bit;
        } else {
            self.bits[word] &= !(1 << bit);
        }
        self.update_enabled();
        true
    }

    /// The propagator of constraint `c`, if it has one: the propagators
    /// are sorted by key (class, then constraint id), so it is found by a
    /// binary search in each class.
    fn prop_of(&self, c: ConstraintId) -> Option<usize> {
        if c.index() >= self.constraints {
            return None;
        }
        (0..4u64).find_map(|class| {
            let key = queue_key(class, c);
            self.props.binary_search_by_key(&key, Slot::key).ok()
        })
    }

    /// Recomputes which propagators run: the wanted ones, less those whose
    /// pruning a wanted propagator makes redundant. With masks, subscribes the
    /// enabled ones that have not subscribed yet, and filters the masks if
    /// some subscribed propagator is disabled.
    fn update_enabled(&mut self) {
        let words = self.words;
        self.bits.copy_within(2 * words..3 * words, words);
        for (p, slot) in self.props.iter().enumerate() {
            let Some(by) = slot.redundant_with() else {
                continue;
            };
            if self.bits[2 * words + by / 64] >> (by % 64) & 1 == 1 {
                self.bits[words + p / 64] &= !(1u64 << (p % 64));
            }
        }
        if words > MASK_WORDS {
            // Lists: every propagator subscribed at the build, and a
            // disabled one is dropped when popped.
            return;
        }
        let header = self.masks_start();
        self.bits.truncate(header + self.masks);
        self.masks_at = header;
        // Enabled but not subscribed: a redundant propagator enabled for the
        // first time. It subscribes now, into the masks the others wrote.
        let late: ArrayVec<u64, MASK_WORDS> = (0..words)
            .map(|w| self.bits[words + w] & !self.bits[3 * words + w])
            .collect();
        if late.iter().any(|&w| w != 0) {
            self.subs.write_masks(&mut self.bits, header, words);
            for (w, &bits) in late.iter().enumerate() {
                for bit in ones(bits) {
                    let p = 64 * w + bit;
                    self.subs.begin(p as u32);
                    self.props[p].prop.subscribe(&mut self.subs, &self.customs);
                }
            }
            self.subs.take_masks(&mut self.bits);
            for (w, bits) in late.iter().enumerate() {
                self.bits[3 * words + w] |= bits;
            }
            self.mark_wakes_open();
        }
        // The masks wake enabled propagators only: while every subscribed
        // one is, the full masks serve; else a filtered copy after them.
        if (0..words).any(|w| self.bits[3 * words + w] & !self.bits[words + w] != 0) {
            self.bits.extend_from_within(header..header + self.masks);
            let (bitsets, masks) = self.bits.split_at_mut(header);
            let enabled = &bitsets[words..2 * words];
            let filtered = &mut masks[self.masks..];
            if let [on] = *enabled {
                // One word a bucket (the common case): a plain loop.
                filtered.iter_mut().for_each(|m| *m &= on);
            } else {
                for bucket in filtered.chunks_exact_mut(words) {
                    bucket.iter_mut().zip(enabled).for_each(|(m, on)| *m &= on);
                }
            }
            self.masks_at = header + self.masks;
        }
    }

    /// Where the subscriber masks start in `bits`: after the bitsets over
    /// propagators and the wakes-open bitset over variables.
    fn masks_start(&self) -> usize {
        BITSETS * self.words + self.fixed_words
    }

    /// Works out the wakes-open bitset in `bits` (see [`Wakeups::wakes_open`]) from the
    /// subscriptions, a word at a time.
    fn mark_wakes_open(&mut self) {
        let (words, start) = (self.words, self.masks_start());
        let (head, masks) = self.bits.split_at_mut(start);
        let wakes_open = &mut head[BITSETS * words..];
        // Bit x % 64 of word x / 64 set when variable x's `Bounds` bucket
        // (which holds the `Changed` subscribers too) is not empty.
        if words == 1 {
            // One mask word a bucket, three buckets a variable: a wakes_open word
            // from 64 variables' buckets (none for the spare last word),
            // shifted in from the last variable down.
            let mut chunks = masks[..self.masks].chunks(3 * 64);
            for word in wakes_open.iter_mut() {
                let buckets = chunks.next().unwrap_or_default();
                *word = buckets
                    .chunks_exact(3)
                    .rev()
                    .fold(0, |w, b| w << 1 | u64::from(b[1] != 0));
            }
            return;
        }
        wakes_open.fill(0);
        if words == 0 {
            // No propagator: nobody listens to anything.
        } else if words <= MASK_WORDS {
            for (x, buckets) in masks[..self.masks].chunks_exact(3 * words).enumerate() {
                let listened = buckets[words..2 * words].iter().any(|&m| m != 0);
                wakes_open[x / 64] |= u64::from(listened) << (x % 64);
            }
        } else {
            for (x, b) in self.wake_bounds.windows(3).step_by(3).enumerate() {
                wakes_open[x / 64] |= u64::from(b[2] > b[0]) << (x % 64);
            }
        }
    }

    /// Whether constraint `c` takes part in propagation.
    ///
    /// # Panics
    ///
    /// If `c` was not posted to the engine's model.
    pub fn is_enabled(&self, c: ConstraintId) -> bool {
        self.assert_own_constraint(c);
        match self.prop_of(c) {
            Some(p) => self.bits[2 * self.words + p / 64] >> (p % 64) & 1 == 1,
            None => false,
        }
    }

    /// The variables each constraint's propagators subscribe to, by
    /// constraint index, each variable once, in index order; none for a
    /// constraint simplified away. Worked out anew at each call, from the
    /// propagators' own subscriptions.
    pub(crate) fn constraint_vars(&self) -> Vec<Vec<u32>> {
        let mut scopes = vec![Vec::new(); self.constraints];
        // A collecting copy: group propagators subscribe through its groups.
        let mut subs = self.subs.clone();
        subs.clear();
        for slot in &self.props {
            slot.prop.subscribe(&mut subs, &self.customs);
            let scope = &mut scopes[slot.origin.index()];
            scope.extend(subs.take().map(|(x, _)| x.index() as u32));
        }
        for scope in &mut scopes {
            scope.sort_unstable();
            scope.dedup();
        }
        scopes
    }

    /// The constraints of the model that have a propagator, as a bitset over
    /// constraint ids.
    pub fn constraints_with_propagators(&self) -> FixedBitSet {
        let mut set = FixedBitSet::with_capacity(self.constraints);
        for slot in &self.props {
            set.insert(slot.origin.index());
        }
        set
    }
}

/// The parts of an engine's `bits` (see [`Engine`]'s field) that
/// propagating uses.
struct Bits<'b> {
    queue: &'b mut [u64],
    enabled: &'b [u64],
    fixed_woken: &'b mut [u64],
    /// `fixed_words` words.
    wakes_open: &'b [u64],
    /// The subscriber masks that wake propagators.
    masks: &'b [u64],
}

/// [`Bits`] of `bits`, with `words` words a bitset, `wakes_open` words of
/// the wakes-open bitset, and `masks` words of masks at `masks_at`.
#[inline(always)]
fn split_bits(
    bits: &mut [u64],
    words: usize,
    wakes_open: usize,
    masks_at: usize,
    masks: usize,
) -> Bits<'_> {
    let (queue, rest) = bits.split_at_mut(words);
    let (sets, rest) = rest.split_at_mut((FIXED_WOKEN - 1) * words);
    let (fixed_woken, rest) = rest.split_at_mut(words);
    Bits {
        queue,
        enabled: &sets[..words],
        fixed_woken,
        wakes_open: &rest[..wakes_open],
        masks: &rest[masks_at - BITSETS * words..][..masks],
    }
}

/// The place in queue order of the propagator of constraint `c` in
/// priority class `class` ([`Slot::key`]).
fn queue_key(class: u64, c: ConstraintId) -> u64 {
    class << 32 | c.index() as u64
}

/// Puts `props`, in posting order, into queue order: by priority class,
/// posting order inside a class. A stable counting sort on the four
/// classes, applied in place a cycle of the permutation at a time, each
/// slot copied once.
fn in_queue_order(props: &mut [Slot]) {
    let n = props.len();
    let class = |slot: &Slot| slot.priority as usize;
    let mut starts = [0usize; 4];
    for slot in props.iter() {
        if let Some(later) = starts.get_mut(class(slot) + 1) {
            *later += 1;
        }
    }
    for c in 1..4 {
        starts[c] += starts[c - 1];
    }
    // `source[i]`: the slot that goes to place `i`; set to `i` once place
    // `i` holds it.
    let mut small = [0u32; 64];
    let mut large = Vec::new();
    let source: &mut [u32] = if n <= small.len() {
        &mut small[..n]
    } else {
        large.resize(n, 0);
        &mut large
    };
    for (k, slot) in props.iter().enumerate() {
        let at = &mut starts[class(slot)];
        source[*at] = k as u32;
        *at += 1;
    }
    for start in 0..n {
        if source[start] as usize == start {
            continue;
        }
        // The cycle through `start`: each place takes the slot from the
        // place it names, the last one the slot that was at `start`.
        let first = props[start];
        let mut at = start;
        loop {
            let from = source[at] as usize;
            source[at] = at as u32;
            if from == start {
                props[at] = first;
                break;
            }
            props[at] = props[from];
            at = from;
        }
    }
}

/// The wake-list bucket of `x`'s subscribers to `e` (as in
/// [`Subscriptions::on`]: `Changed`, `Bounds`, `Fixed` in that order).
fn bucket(x: VarId, e: Event) -> usize {
    3 * x.index() + e as usize
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::Strength;

    #[test]
    fn simplifies_constraints_on_one_variable_twice() {
        let mut m = Model::new();
        let x = m.int_var("x", 1, 3).expect("valid");
        m.equal(x, x).expect("valid");
        m.less_eq(x, x).expect("valid");
        m.distance(x, x, 0).expect("valid");
        let engine = Engine::new(&m);
        assert_eq!(engine.propagator_count(), 0);

        let mut m = Model::new();
        let x = m.int_var("x", 1, 3).expect("valid");
        let first = m.less(x, x).expect("valid");
        m.not_equal(x, x).expect("valid");
        let mut engine = Engine::new(&m);
        // Both never hold; the first one posted reports the conflict.
        assert_eq!(engine.propagate(), Err(first));
    }

    #[test]
    fn queue_is_empty_after_a_conflict() {
        let mut m = Model::new();
        let x = m.int_var("x", 1, 3).expect("valid");
        let y = m.int_var("y", 1, 3).expect("valid");
        m.less(x, y).expect("valid");
        m.less(y, x).expect("valid");
        let mut engine = Engine::new(&m);
        assert!(engine.propagate().is_err());
        assert!(engine.bits[..engine.words].iter().all(|&w| w == 0));
    }

    #[test]
    fn disabled_constraints_do_not_propagate() {
        let mut m = Model::new();
        let x = m.int_var("x", 1, 3).expect("valid");
        let c = m.equal_value(x, 2).expect("valid");
        let mut engine = Engine::new(&m);
        assert!(engine.set_enabled(c, false));
        engine.reset();
        engine.propagate().expect("no conflict");
        assert_eq!(engine.dom(x), Domain::range(1, 3));
        engine.set_enabled(c, true);
        engine.reset();
        engine.propagate().expect("no conflict");
        assert_eq!(engine.dom(x), Domain::singleton(2));
    }

    #[test]
    fn wakes_subscribers_through_masks_and_through_lists() {
        // A chain x0 < x1 < ... < x59, each link posted `copies` times: one
        // copy keeps the queue within the subscriber masks, five take it
        // past them to the lists. Both must reach the same fixpoints.
        for copies in [1, 5] {
            let mut m = Model::new();
            let xs: Vec<VarId> = (0..60)
                .map(|i| m.int_var(&format!("x{i}"), 0, 63).expect("valid"))
                .collect();
            for _ in 0..copies {
                for w in xs.windows(2) {
                    m.less(w[0], w[1]).expect("valid");
                }
            }
            let mut engine = Engine::new(&m);
            assert_eq!(engine.words > MASK_WORDS, copies == 5);
            engine.propagate().expect("no conflict");
            assert_eq!(engine.dom(xs[0]), Domain::range(0, 4));
            assert_eq!(engine.dom(xs[59]), Domain::range(59, 63));
            // Fixing the first value wakes the chain all the way up.
            assert!(engine.restrict(xs[0], Domain::singleton(4)));
            engine.propagate().expect("no conflict");
            assert!(
                xs.iter()
                    .enumerate()
                    .all(|(i, &x)| engine.dom(x) == Domain::singleton(i as u8 + 4))
            );
        }
    }

    #[test]
    fn weak_bitset_marks_the_variables_with_subscribers_to_open_narrowings() {
        // 100 variables (two bitset words), value all-differents (they wake
        // on fixing alone) and random binary constraints (on changes or
        // bounds); enough copies of them take the queue past the masks to
        // the lists. The bitset must say which variables some propagator
        // subscribes to `Changed` or `Bounds` of, as the propagators say.
        use crate::check::SplitMix64;
        let mut rng = SplitMix64::new(41);
        for round in 0..20 {
            let mut m = Model::new();
            let xs: Vec<VarId> = (0..100)
                .map(|i| m.int_var(&format!("x{i}"), 0, 9).expect("valid"))
                .collect();
            for g in 0..10 {
                m.all_different(&xs[10 * g..10 * g + 10], Strength::Value)
                    .expect("valid");
            }
            let binary = if round % 2 == 0 { 10 } else { 300 };
            for _ in 0..binary {
                let (x, y) = (xs[rng.below(100)], xs[rng.below(100)]);
                match rng.below(3) {
                    0 => m.equal(x, y),
                    1 => m.less(x, y),
                    _ => m.not_equal(x, y),
                }
                .expect("valid");
            }
            let engine = Engine::new(&m);
            assert_eq!(engine.words > MASK_WORDS, binary == 300);
            let mut expected = vec![0u64; engine.fixed_words];
            // The engine's, for its group variables; collecting anew.
            let mut subs = engine.subs.clone();
            subs.clear();
            for slot in &engine.props {
                slot.prop.subscribe(&mut subs, &[]);
            }
            for (x, event) in subs.take() {
                if event != Event::Fixed {
                    expected[x.index() / 64] |= 1 << (x.index() % 64);
                }
            }
            let wakes_open = &engine.bits[BITSETS * engine.words..engine.masks_start()];
            assert_eq!(wakes_open, expected, "round {round}");
            assert!(expected[0] != 0 && expected[0] != u64::MAX, "round {round}");
        }
    }

    #[test]
    fn fixed_bitset_marks_exactly_the_one_value_domains() {
        // 150 variables (three bitset words), random clues and groups,
        // random search decisions: after every fixpoint, restore and reset
        // the bitset must say which domains have one value.
        use crate::check::SplitMix64;
        let mut rng = SplitMix64::new(11);
        let fixed_ok = |e: &Engine| {
            let mut expected = vec![0u64; e.fixed_words];
            fixed_bits(e.domain_bits(), &mut expected);
            e.fixed_bits() == &expected[..]
        };
        for round in 0..40 {
            let mut m = Model::new();
            let xs: Vec<VarId> = (0..150)
                .map(|i| {
                    let (lo, hi) = (rng.below(3) as i64, 3 + rng.below(4) as i64);
                    m.int_var(&format!("x{i}"), lo, hi).expect("valid")
                })
                .collect();
            for _ in 0..60 {
                let (x, y) = (xs[rng.below(150)], xs[rng.below(150)]);
                match rng.below(3) {
                    0 => m.offset(x, y, rng.below(3) as i64 - 1),
                    1 => m.less(x, y),
                    _ => m.distance(x, y, 1),
                }
                .expect("valid");
            }
            let start = rng.below(140);
            m.all_different(&xs[start..start + 7], Strength::Value)
                .expect("valid");
            let mut engine = Engine::new(&m);
            assert!(fixed_ok(&engine), "round {round}: at the root");
            let mut saved = vec![0; engine.state_len()];
            if engine.propagate().is_err() {
                continue;
            }
            engine.save(&mut saved);
            for _ in 0..30 {
                let x = xs[rng.below(150)];
                let v = engine.dom(x).iter().nth(rng.below(3)).unwrap_or(0);
                engine.restrict(x, Domain::singleton(v));
                let ok = engine.propagate().is_ok();
                assert!(fixed_ok(&engine) || !ok, "round {round}: after a fixpoint");
                if !ok {
                    engine.restore(&saved);
                    assert!(fixed_ok(&engine), "round {round}: after a restore");
                }
            }
            engine.reset();
            assert!(fixed_ok(&engine), "round {round}: after a reset");
        }
    }

    #[test]
    fn a_switched_off_link_wakes_nobody_with_masks_of_several_words() {
        // x0 < x1 < ... < x119 (two queue words, so the masks have two words
        // a bucket): with link 60 switched off, the chain splits in two.
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..120)
            .map(|i| m.int_var(&format!("x{i}"), 0, 63).expect("valid"))
            .collect();
        let links: Vec<ConstraintId> = xs
            .windows(2)
            .map(|w| m.less(w[0], w[1]).expect("valid"))
            .collect();
        let mut engine = Engine::new(&m);
        assert_eq!(engine.words, 2);
        // The chain of 120 cannot fit 64 values: a conflict while all are on.
        assert!(engine.propagate().is_err());
        engine.set_enabled(links[60], false);
        engine.reset();
        engine.propagate().expect("no conflict");
        assert_eq!(engine.dom(xs[60]), Domain::range(60, 63));
        assert_eq!(engine.dom(xs[61]), Domain::range(0, 5));
        assert_eq!(engine.dom(xs[119]), Domain::range(58, 63));
        // Narrowing x60 from above may not reach x61 through the link.
        assert!(engine.restrict(xs[60], Domain::singleton(60)));
        engine.propagate().expect("no conflict");
        assert_eq!(engine.dom(xs[0]), Domain::singleton(0));
        assert_eq!(engine.dom(xs[61]), Domain::range(0, 5));
        engine.set_enabled(links[60], true);
        engine.reset();
        assert!(engine.propagate().is_err());
    }

    #[test]
    fn propagators_are_queued_by_class_then_posting_order() {
        // Constraints of every class posted in random order, fewer and more
        // than 64 of them (the two ways of ordering): every propagator is
        // there once, by class, in posting order inside a class.
        use crate::check::SplitMix64;
        let mut rng = SplitMix64::new(29);
        for round in 0..200 {
            let mut m = Model::new();
            let xs: Vec<VarId> = (0..8)
                .map(|i| m.int_var(&format!("x{i}"), 0, 9).expect("valid"))
                .collect();
            let count = 1 + rng.below(if round % 2 == 0 { 60 } else { 150 });
            for _ in 0..count {
                let (x, y) = (xs[rng.below(8)], xs[1 + rng.below(7)]);
                match rng.below(4) {
                    0 => m.equal_value(x, rng.below(10) as i64),
                    1 => m.distance(xs[0], y, 1),
                    2 => m.all_different(&xs[..2 + rng.below(6)], Strength::Value),
                    _ => m.all_different(&xs[..2 + rng.below(6)], Strength::Domain),
                }
                .expect("valid");
            }
            let engine = Engine::new(&m);
            let keys: Vec<u64> = engine.props.iter().map(Slot::key).collect();
            assert!(keys.is_sorted(), "round {round}: {keys:?}");
            assert_eq!(keys.len(), count, "round {round}");
            let mut origins: Vec<usize> = engine.props.iter().map(|s| s.origin.index()).collect();
            origins.sort_unstable();
            assert_eq!(origins, (0..count).collect::<Vec<_>>(), "round {round}");
        }
    }

    #[test]
    fn custom_propagators_are_dropped_by_reload_clone_and_drop() {
        // Every `Arc` a build took is given back, however the engine goes.
        use crate::propagators::testing::Watch;
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..3)
            .map(|i| m.int_var(&format!("x{i}"), 1, 3).expect("fresh"))
            .collect();
        m.all_different(&xs, Strength::Domain).expect("valid");
        m.each_value_held(&xs, Domain::range(1, 3)).expect("valid");
        let watch = Arc::new(Watch(xs[0]));
        m.post(crate::Constraint::Custom(watch.clone()))
            .expect("valid");
        let alone = Arc::strong_count(&watch);
        let mut engine = Engine::new(&m);
        assert!(Arc::strong_count(&watch) > alone);
        let built = Arc::strong_count(&watch);
        engine.load(&m);
        assert_eq!(Arc::strong_count(&watch), built);
        let copy = engine.clone();
        assert!(Arc::strong_count(&watch) > built);
        drop(copy);
        assert_eq!(Arc::strong_count(&watch), built);
        drop(engine);
        assert_eq!(Arc::strong_count(&watch), alone);
    }

    #[test]
    fn each_group_propagator_reads_its_own_place_among_the_group_variables() {
        use crate::ids::Group;
        // The engine's group variables are a copy of the model's, each
        // group in the place the model gave it (in posting order; an
        // each-value-held right after an all-different on the same list
        // shares its place); a reload refills the list rather than growing
        // it.
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..4)
            .map(|i| m.int_var(&format!("x{i}"), 1, 4).expect("fresh"))
            .collect();
        m.all_different(&xs, Strength::Domain).expect("valid");
        m.each_value_held(&xs, Domain::range(1, 4)).expect("valid");
        m.all_different(&[xs[3], xs[1]], Strength::Value)
            .expect("valid");
        let mut engine = Engine::new(&m);
        let room = engine.subs.groups().capacity();
        for _ in 0..2 {
            let expected = [&xs[..], &[xs[3], xs[1]]].concat();
            assert_eq!(*engine.subs.groups(), expected);
            assert_eq!(engine.subs.groups().capacity(), room);
            // In queue order: the linear each-value-held and value
            // all-different, then the quadratic domain all-different.
            let places: Vec<Group> = engine
                .props
                .iter()
                .filter_map(|slot| match &slot.prop {
                    AnyPropagator::AllDifferentDomain(p) => Some(p.vars),
                    AnyPropagator::AllDifferentValue(p) => Some(p.vars),
                    AnyPropagator::EachValueHeld(p) => Some(p.vars),
                    _ => None,
                })
                .collect();
            let at = |start, len| Group { start, len };
            assert_eq!(places, [at(0, 4), at(4, 2), at(0, 4)]);
            engine.load(&m);
        }
        // Another model's groups replace these.
        let mut other = Model::new();
        let ys: Vec<VarId> = (0..3)
            .map(|i| other.int_var(&format!("y{i}"), 1, 3).expect("fresh"))
            .collect();
        other.all_different(&ys, Strength::Value).expect("valid");
        engine.load(&other);
        assert_eq!(*engine.subs.groups(), ys);
    }

    #[test]
    fn counts_propagator_runs() {
        let mut m = Model::new();
        let x = m.int_var("x", 1, 3).expect("valid");
        let y = m.int_var("y", 1, 3).expect("valid");
        m.equal(x, y).expect("valid");
        m.equal_value(x, 2).expect("valid");
        let mut engine = Engine::new(&m);
        engine.propagate().expect("no conflict");
        // in-set once, equal once (woken by in-set, it was still queued).
        assert_eq!(engine.propagations(), 2);
        assert_eq!(engine.dom(y), Domain::singleton(2));
    }

    #[test]
    fn finds_the_propagator_of_each_constraint_in_both_placements() {
        // Models whose propagators fit subscriber masks and models whose
        // do not (wake lists), some constraints simplified away: switching
        // each one off and on must reach its own propagator and no other.
        use crate::check::SplitMix64;
        let mut rng = SplitMix64::new(5);
        for count in [40, 64 * MASK_WORDS + 50] {
            let mut m = Model::new();
            let xs: Vec<VarId> = (0..6)
                .map(|i| m.int_var(&format!("x{i}"), 0, 9).expect("valid"))
                .collect();
            let ids: Vec<ConstraintId> = (0..count)
                .map(|_| {
                    let (x, y) = (xs[rng.below(6)], xs[rng.below(6)]);
                    match rng.below(4) {
                        0 => m.equal(x, y),
                        1 => m.less(x, y),
                        2 => m.all_different(&[x, y], Strength::Value),
                        _ => m.equal_value(x, rng.below(10) as i64),
                    }
                    .expect("valid")
                })
                .collect();
            let mut engine = Engine::new(&m);
            let keys: Vec<u64> = engine.props.iter().map(Slot::key).collect();
            assert!(keys.is_sorted(), "{count}");
            let with = engine.constraints_with_propagators();
            assert_eq!(with.count_ones(..), engine.propagator_count(), "{count}");
            assert!(with.count_ones(..) < count, "some are simplified away");
            for &c in &ids {
                let has = with.contains(c.index());
                assert_eq!(engine.is_enabled(c), has);
                assert_eq!(engine.set_enabled(c, false), has);
                assert!(!engine.is_enabled(c));
                if has {
                    let p = engine.prop_of(c).expect("has a propagator");
                    assert_eq!(engine.props[p].origin, c);
                    let enabled = engine.bits[engine.words + p / 64] >> (p % 64) & 1;
                    assert_eq!(enabled, 0, "{count}: {c:?}");
                }
                assert_eq!(engine.set_enabled(c, true), has);
                assert_eq!(engine.is_enabled(c), has);
            }
        }
    }

    #[test]
    fn an_each_value_held_is_redundant_only_with_a_repeat_free_permutation_of_its_variables() {
        // Each case: the all-different's variables, the each-value-held's,
        // and whether the second is redundant.
        // A repeat on either side, or other variables, keeps it running.
        let cases: [(&[usize], &[usize], bool); 8] = [
            (&[0, 1, 2], &[0, 1, 2], true),
            (&[0, 1, 2], &[2, 0, 1], true),
            (&[0, 0, 1], &[0, 0, 1], false),
            (&[0, 1, 2], &[0, 0, 1], false),
            (&[0, 1, 2], &[0, 1, 3], false),
            (&[3, 0, 1], &[0, 1, 2], false),
            (&[1, 2, 3], &[0, 1, 2], false),
            (&[0, 1, 2], &[1, 2, 3], false),
        ];
        for (distinct, held, redundant) in cases {
            let mut m = Model::new();
            let xs: Vec<VarId> = (0..4)
                .map(|i| m.int_var(&format!("x{i}"), 1, 3).expect("valid"))
                .collect();
            let pick = |is: &[usize]| is.iter().map(|&i| xs[i]).collect::<Vec<_>>();
            m.all_different(&pick(distinct), Strength::Domain)
                .expect("valid");
            let c = m
                .each_value_held(&pick(held), Domain::range(1, 3))
                .expect("valid");
            let engine = Engine::new(&m);
            let p = engine.prop_of(c).expect("posted");
            assert_eq!(
                engine.props[p].redundant_with().is_some(),
                redundant,
                "{distinct:?} {held:?}"
            );
        }
        // Among many domain all-differents, the one on the same variables.
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..80)
            .map(|i| m.int_var(&format!("x{i}"), 1, 3).expect("valid"))
            .collect();
        for w in xs.windows(3) {
            m.all_different(w, Strength::Domain).expect("valid");
        }
        let c = m
            .each_value_held(&xs[70..73], Domain::range(1, 3))
            .expect("valid");
        let engine = Engine::new(&m);
        let p = engine.prop_of(c).expect("posted");
        assert_eq!(engine.props[p].redundant_with(), Some(71));
    }

    #[test]
    fn placing_writes_the_masks_the_propagators_subscriptions_say() {
        // Random models of groups (domain all-differents, each-value-helds
        // on the same variables, in order or not, or on others; value
        // all-differents) and binary constraints; built as they are, the
        // once as they are and once padded with 300 constraints that always
        // hold: both must give the masks that the subscribed propagators'
        // own subscriptions give, and the same bitsets, slots and state;
        // and an each-value-held is redundant just when a domain
        // all-different without repeats holds the same set of variables.
        use crate::check::SplitMix64;
        let mut rng = SplitMix64::new(7);
        let mut redundant = 0;
        for round in 0..40 {
            let seed = rng.below(1 << 30) as u64;
            let model = |padded: bool| {
                let mut rng = SplitMix64::new(seed);
                let mut m = Model::new();
                let xs: Vec<VarId> = (0..30)
                    .map(|i| m.int_var(&format!("x{i}"), 1, 4).expect("valid"))
                    .collect();
                for _ in 0..1 + rng.below(6) {
                    let first = rng.below(26);
                    let mut group = xs[first..first + 4].to_vec();
                    if rng.below(2) == 0 {
                        group.swap(0, 3);
                    }
                    match rng.below(4) {
                        0 => m.all_different(&group, Strength::Value),
                        _ => m.all_different(&group, Strength::Domain),
                    }
                    .expect("valid");
                    if rng.below(3) != 0 {
                        group.swap(1, rng.below(4));
                        if rng.below(4) == 0 {
                            group[2] = xs[rng.below(30)];
                        }
                        m.each_value_held(&group, Domain::range(1, 4))
                            .expect("valid");
                    }
                }
                for _ in 0..rng.below(40) {
                    let (x, y) = (xs[rng.below(30)], xs[rng.below(30)]);
                    match rng.below(3) {
                        0 => m.equal(x, y),
                        1 => m.less(x, y),
                        _ => m.distance(x, y, 1),
                    }
                    .expect("valid");
                }
                if padded {
                    for _ in 0..300 {
                        m.equal(xs[0], xs[0]).expect("valid");
                    }
                }
                m
            };
            let (plain, padded) = (Engine::new(&model(false)), Engine::new(&model(true)));
            let words = plain.words;
            let mut expected = vec![0u64; plain.masks];
            // The engine's, for its group variables.
            let mut subs = plain.subs.clone();
            subs.write_masks(&mut expected, 0, words);
            for (p, slot) in plain.props.iter().enumerate() {
                if plain.bits[3 * words + p / 64] >> (p % 64) & 1 == 1 {
                    subs.begin(p as u32);
                    slot.prop.subscribe(&mut subs, &[]);
                }
            }
            subs.take_masks(&mut expected);
            assert_eq!(
                &plain.bits[plain.masks_start()..][..plain.masks],
                &expected[..],
                "round {round}"
            );
            assert_eq!(plain.bits, padded.bits, "round {round}");
            assert_eq!(plain.state, padded.state, "round {round}");
            let slots = |e: &Engine| -> Vec<_> {
                e.props
                    .iter()
                    .map(|slot| (slot.key(), slot.words, slot.redundant_with()))
                    .collect()
            };
            assert_eq!(slots(&plain), slots(&padded), "round {round}");
            let m = model(false);
            let sorted = |vars: &[VarId]| {
                let mut v = vars.to_vec();
                v.sort_unstable();
                v
            };
            let groups = plain.subs.groups();
            for slot in &plain.props {
                let AnyPropagator::EachValueHeld(held) = &slot.prop else {
                    continue;
                };
                let vars = sorted(held.vars.of(groups));
                let covers = |other: &Slot| match &other.prop {
                    AnyPropagator::AllDifferentDomain(all) => {
                        let group = sorted(all.vars.of(groups));
                        let distinct = group.windows(2).all(|w| w[0] != w[1]);
                        group == vars && distinct && !all.shifted()
                    }
                    _ => false,
                };
                // Any all-different that covers the group serves.
                match slot.redundant_with() {
                    Some(by) => assert!(covers(&plain.props[by]), "round {round}"),
                    None => assert!(!plain.props.iter().any(covers), "round {round}"),
                }
            }
            let _ = m;
            redundant += plain
                .props
                .iter()
                .filter(|s| s.redundant_with().is_some())
                .count();
        }
        assert!(redundant > 10, "redundant each-value-helds are covered");
    }

    #[test]
    fn a_redundant_each_value_held_subscribes_and_prunes_once_its_all_different_is_off() {
        // A permutation of 1..=4 over four variables (a domain
        // all-different and an each-value-held), and a value-strength copy
        // to keep the values apart once the domain one is off.
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..4)
            .map(|i| m.int_var(&format!("x{i}"), 1, 4))
            .collect::<Result<_, _>>()
            .expect("valid");
        let domain = m.all_different(&xs, Strength::Domain).expect("valid");
        let held = m.each_value_held(&xs, Domain::range(1, 4)).expect("valid");
        m.all_different(&xs, Strength::Value).expect("valid");
        let mut engine = Engine::new(&m);
        let p = engine.prop_of(held).expect("posted");
        assert_eq!(engine.props[p].redundant_with(), engine.prop_of(domain));
        // Disabled and not subscribed: the masks hold no bit of it.
        let words = engine.words;
        let masks = &engine.bits[engine.masks_start()..];
        assert!(masks.iter().all(|&mask| mask >> p & 1 == 0));
        assert_eq!(engine.masks_at, engine.masks_start(), "no filtered copy");
        // x1, x2 in {1, 2} and x3 in {1..3} leave 4 to x0 alone and 3 to
        // x3 alone: the each-value-held (or the domain all-different)
        // fixes them, woken by the narrowings; the value all-different
        // alone would not, as nothing is fixed.
        let narrow = |engine: &mut Engine| {
            engine.reset();
            engine.propagate().expect("no conflict");
            assert!(engine.restrict(xs[1], Domain::range(1, 2)));
            assert!(engine.restrict(xs[2], Domain::range(1, 2)));
            assert!(engine.restrict(xs[3], Domain::range(1, 3)));
            engine.propagate().expect("no conflict");
            (engine.dom(xs[0]), engine.dom(xs[3]))
        };
        let fixed = (Domain::singleton(4), Domain::singleton(3));
        assert_eq!(narrow(&mut engine), fixed);

        // The domain all-different off: the each-value-held subscribes to
        // every variable's changes, unfiltered.
        engine.set_enabled(domain, false);
        let masks = &engine.bits[engine.masks_at..][..engine.masks];
        for x in &xs {
            assert_eq!(masks[3 * x.index()] >> p & 1, 1, "{x:?}");
        }
        assert_eq!(narrow(&mut engine), fixed);

        // With the each-value-held off too, nothing fixes them.
        engine.set_enabled(held, false);
        assert_eq!(
            narrow(&mut engine),
            (Domain::range(1, 4), Domain::range(1, 3))
        );

        // Back on, both: redundant again, and since it subscribed, the
        // masks in use are a filtered copy without it.
        engine.set_enabled(held, true);
        engine.set_enabled(domain, true);
        assert_eq!(engine.bits[words + p / 64] >> (p % 64) & 1, 0);
        assert_eq!(engine.masks_at, engine.masks_start() + engine.masks);
        let masks = &engine.bits[engine.masks_at..][..engine.masks];
        assert!(masks.iter().all(|&mask| mask >> p & 1 == 0));
        assert_eq!(narrow(&mut engine), fixed);
    }
}
