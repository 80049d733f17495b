//! [`Engine`]: the domains, the propagators and the queue that runs them to
//! a fixpoint.
//!
//! # State
//!
//! The whole search state is one `Vec<u64>`: the domains (one word a
//! variable, in declaration order), a bitset of the fixed variables (so a
//! propagator finds them without reading every domain), then the
//! propagators' state words.
//! Saving and restoring a search node is one copy of that slice
//! ([`Engine::save`], [`Engine::restore`]); nothing is trailed.
//!
//! # Scheduling
//!
//! Propagators are numbered by [`Priority`](crate::propagators::Priority) first and posting order second,
//! and the queue is a bitset of those numbers. The engine always runs the
//! lowest-numbered queued propagator: so every cheaper class runs before a
//! dearer one, and inside a class the earlier-posted constraint runs first.
//! This order is fixed by the model alone, so the trace is too.
//!
//! A domain change queues the change's subscribers (a propagator already
//! queued is not queued twice: it is one bit). A propagator that reports
//! [`Status::Fixpoint`] is taken off the queue again if its own changes put
//! it there.
//!
//! At construction every propagator is queued, so the first
//! [`Engine::propagate`] computes the root fixpoint.
//!
//! # Post-time simplification
//!
//! `Engine::new` posts no propagator for a constraint that always holds
//! (`x = x`), and an always-empty unary one for a constraint that never does
//! (`x != x`), so the conflict is still reported against it.

use std::sync::Arc;

use arrayvec::ArrayVec;
use fixedbitset::FixedBitSet;

use crate::domain::Domain;
use crate::model::{Constraint, ConstraintId, Model, Strength, VarId};
use crate::observer::Observer;
use crate::propagators::{
    AllDifferentDomain, AllDifferentValue, AnyPropagator, Ctx, Distance, EachValueHeld, Equal,
    Event, InSet, Less, MASK_WORDS, NotDistance, Offset, PruneSink, Runner, Status, Subscriptions,
    Wakeups, fixed_bits, fixed_words, has_repeats,
};

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
    /// The model's tag, for making [`VarId`]s.
    model: u32,
    /// The number of variables: `state[..vars]` are the domains.
    vars: usize,
    /// Words of the fixed-variable bitset, `state[vars..vars + fixed_words]`:
    /// bit `i` is set when variable `i` has one value (and a spare zero
    /// word ends it, see `propagators::fixed_words`).
    fixed_words: usize,
    /// The words of one search state: the domains, the fixed-variable
    /// bitset, then the propagators' state words.
    width: usize,
    /// `state[..width]` is the current state; `state[width..]` the state
    /// at the root, before any propagation. Between calls the queue is
    /// empty and every domain is non-empty, except after a conflict.
    state: Vec<u64>,
    /// Propagators in queue order, each with its constraint and state words.
    props: Vec<Slot>,
    /// `by_constraint[c]`: the propagator of constraint `c`, if any.
    by_constraint: Vec<Option<u32>>,
    /// Bucket boundaries into `wake_list`, three buckets a variable:
    /// variable `x`'s `Changed` subscribers are `wake_list[b[3x]..b[3x+1]]`,
    /// `Bounds` ones `..b[3x+2]`, `Fixed` ones `..b[3x+3]`, so that an event
    /// wakes a prefix of the variable's list.
    wake_bounds: Vec<u32>,
    /// Propagator ids, grouped by variable and event as `wake_bounds` says.
    wake_list: Vec<u32>,
    /// Subscriber masks instead of the lists, when the queue has at most
    /// [`MASK_WORDS`] words (see [`Wakeups::masks`]).
    wake_masks_all: Vec<u64>,
    /// The same less the disabled propagators, so that a disabled one is
    /// never queued; empty while every propagator is enabled.
    wake_masks: Vec<u64>,
    /// Three bitsets over propagator ids, `words` words each: the queue
    /// (waiting to run), the enabled propagators (a disabled one is never
    /// queued; derived from the next two by `update_enabled`), and the
    /// wanted ones (not switched off by the user).
    bits: Vec<u64>,
    /// Words in each bitset of `bits`.
    words: usize,
    /// `(redundant, by)`: propagator `redundant` (an each-value-held) prunes
    /// nothing that `by` (a domain all-different on the same permutation)
    /// does not, so it runs only while `by` is switched off.
    subsumed: Vec<(u32, u32)>,
    /// Bit `x` set when some propagator subscribes to `Changed` or
    /// `Bounds` of variable `x` (see [`Wakeups::weak`]), as many words as
    /// the fixed-variable bitset.
    weak: Vec<u64>,
    /// Propagator runs so far.
    propagations: u64,
    /// Subscriptions, kept only while building (reused by `load`).
    subs: Subscriptions,
}

/// One propagator as the engine keeps it.
#[derive(Debug, Clone)]
struct Slot {
    prop: AnyPropagator,
    /// Runs `prop` (its kind's function, chosen once).
    run: Runner,
    /// The constraint it enforces.
    origin: ConstraintId,
    /// The queue order: priority class, then constraint id.
    key: u64,
    /// Where its state words are among the propagators' state words (which
    /// follow the domains in a search state).
    words: (u32, u32),
}

impl Engine {
    /// Builds the engine for `model`, with every propagator queued.
    pub fn new(model: &Model) -> Engine {
        let mut engine = Engine {
            model: model.tag(),
            vars: 0,
            fixed_words: 0,
            width: 0,
            state: Vec::new(),
            props: Vec::new(),
            by_constraint: Vec::new(),
            wake_bounds: Vec::new(),
            wake_list: Vec::new(),
            wake_masks: Vec::new(),
            wake_masks_all: Vec::new(),
            bits: Vec::new(),
            words: 0,
            subsumed: Vec::new(),
            weak: Vec::new(),
            propagations: 0,
            subs: Subscriptions::default(),
        };
        engine.load(model);
        engine
    }

    /// Makes this engine the engine for `model`, as [`Engine::new`] would
    /// build it, but reusing the storage it already has: a generator that
    /// checks many models of one size allocates nothing after the first.
    pub fn load(&mut self, model: &Model) {
        let vars = model.len();
        self.model = model.tag();
        self.vars = vars;
        self.fixed_words = fixed_words(vars);
        self.propagations = 0;
        let constraints = model.constraint_count();
        self.by_constraint.clear();
        self.by_constraint.resize(constraints, None);

        // Queue order: cheap classes first, posting order inside a class.
        // Constraint ids are unique, so the unstable sort is deterministic.
        self.props.clear();
        self.props.reserve(constraints);
        for (id, c) in model.constraints() {
            if let Some(prop) = build(c) {
                let key = (prop.priority() as u64) << 32 | id.index() as u64;
                self.props.push(Slot {
                    run: prop.runner(),
                    prop,
                    origin: id,
                    key,
                    words: (0, 0),
                });
            }
        }
        // Mostly in order already: each class is posted in runs.
        if !self.props.is_sorted_by_key(|slot| slot.key) {
            order_by_class(&mut self.props);
        }

        // State words, and the subscriptions of every propagator in queue
        // order (reserved up front: growing a vector by pushes costs more
        // than the whole build of a small model).
        let prop_start = (vars + self.fixed_words) as u32;
        let mut next_word = prop_start;
        self.wake_bounds.clear();
        self.wake_list.clear();
        self.wake_masks.clear();
        self.wake_masks_all.clear();
        let n = self.props.len();
        let words = n.div_ceil(64);
        self.words = words;
        if words <= MASK_WORDS {
            self.subs.write_masks(vars * 3, words);
        } else {
            let occurrences: usize = model.constraints().map(|(_, c)| c.arity()).sum();
            self.subs.clear();
            self.subs.reserve(occurrences);
        }
        for (p, slot) in self.props.iter_mut().enumerate() {
            self.by_constraint[slot.origin.index()] = Some(p as u32);
            let prop = &slot.prop;
            let state_words = prop.state_words() as u32;
            // Relative to the propagator state, which follows the domains
            // and the fixed-variable bitset.
            let at = next_word - prop_start;
            slot.words = (at, at + state_words);
            next_word += state_words;
            self.subs.begin(p as u32);
            prop.subscribe(&mut self.subs);
        }
        if words <= MASK_WORDS {
            self.subs.swap_masks(&mut self.wake_masks_all);
        } else {
            // A counting sort into lists: `wake_bounds[b + 1]` counts bucket
            // b's subscribers, prefix sums make `wake_bounds[b]` bucket b's
            // start; filling moves it to the bucket's end, which is the next
            // bucket's start, so one shift right restores the starts.
            self.wake_bounds.resize(vars * 3 + 1, 0);
            for &(x, e, _) in self.subs.all() {
                self.wake_bounds[bucket(x, e) + 1] += 1;
            }
            for b in 1..self.wake_bounds.len() {
                self.wake_bounds[b] += self.wake_bounds[b - 1];
            }
            self.wake_list.resize(self.subs.len(), 0);
            for &(x, e, p) in self.subs.all() {
                let b = bucket(x, e);
                self.wake_list[self.wake_bounds[b] as usize] = p;
                self.wake_bounds[b] += 1;
            }
            self.wake_bounds.copy_within(..vars * 3, 1);
            self.wake_bounds[0] = 0;
        }
        // The variables a narrowing that leaves them open wakes anyone for:
        // the `Bounds` bucket holds the subscribers to `Changed` too.
        self.weak.clear();
        self.weak.resize(self.fixed_words, 0);
        let weak = &mut self.weak;
        let mut mark = |x: usize, is_weak: bool| weak[x / 64] |= u64::from(is_weak) << (x % 64);
        if words == 0 {
            // No propagator: nobody listens to anything.
        } else if words == 1 {
            for (x, buckets) in self.wake_masks_all.chunks_exact(3).enumerate() {
                mark(x, buckets[1] != 0);
            }
        } else if words <= MASK_WORDS {
            for (x, buckets) in self.wake_masks_all.chunks_exact(3 * words).enumerate() {
                mark(x, buckets[words..2 * words].iter().any(|&m| m != 0));
            }
        } else {
            for (x, b) in self.wake_bounds.windows(3).step_by(3).enumerate() {
                mark(x, b[2] > b[0]);
            }
        }

        // The current state and the root state, both from the model's domains.
        let width = next_word as usize;
        self.width = width;
        self.state.clear();
        self.state.reserve(2 * width);
        self.state.extend(model.domains().iter().map(|d| d.bits()));
        self.state.resize(width, 0);
        let (doms, rest) = self.state.split_at_mut(vars);
        fixed_bits(doms, &mut rest[..self.fixed_words]);
        self.state.extend_from_within(..width);

        self.bits.clear();
        self.bits.resize(3 * words, 0);
        let wanted = &mut self.bits[2 * words..];
        wanted.fill(u64::MAX);
        if n % 64 != 0 {
            wanted[words - 1] = (1u64 << (n % 64)) - 1;
        }
        self.subsumed.clear();
        subsumed_pairs(model, &self.by_constraint, &mut self.subsumed);
        self.update_enabled();
        self.bits.copy_within(words..2 * words, 0);
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
        assert!(
            x.model() == self.model,
            "variable #{} belongs to another model",
            x.index()
        );
        Domain::from_bits(self.state[x.index()])
    }

    /// The tag of the model the engine was built from.
    pub(crate) fn tag(&self) -> u32 {
        self.model
    }

    /// The variable with declaration index `i`.
    ///
    /// # Panics
    ///
    /// If `i` is not below [`Engine::len`].
    pub fn var_at(&self, i: usize) -> VarId {
        assert!(i < self.vars, "variable index out of range");
        VarId::new(self.model, i as u32)
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
    #[inline]
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
    #[inline]
    pub fn restrict(&mut self, x: VarId, keep: Domain) -> bool {
        let i = x.index();
        let old = self.state[..self.vars][i];
        let new = old & keep.bits();
        if new == 0 {
            return false;
        }
        if new != old {
            self.state[i] = new;
            let wakeups = Wakeups {
                masks: enabled_masks(&self.wake_masks, &self.wake_masks_all),
                bounds: &self.wake_bounds,
                list: &self.wake_list,
                weak: &self.weak,
            };
            let fixed = &mut self.state[self.vars..][..self.fixed_words];
            wakeups.wake(&mut self.bits[..self.words], fixed, i, old, new);
        }
        true
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
    // Always inlined: the search loop calls it at every node, and so does
    // the parallel count's split, and out of line the loop measured 2% more
    // instructions a queens node.
    #[inline(always)]
    pub fn propagate_observed<O: Observer>(
        &mut self,
        observer: &mut O,
    ) -> Result<(), ConstraintId> {
        let (doms, rest) = self.state[..self.width].split_at_mut(self.vars);
        let (fixed, prop_state) = rest.split_at_mut(self.fixed_words);
        let wakeups = Wakeups {
            masks: enabled_masks(&self.wake_masks, &self.wake_masks_all),
            bounds: &self.wake_bounds,
            list: &self.wake_list,
            weak: &self.weak,
        };
        let (queue, rest) = self.bits.split_at_mut(self.words);
        // With masks, a disabled propagator is never queued (see
        // `update_enabled`); with lists it may be, and is dropped when popped.
        let enabled = if self.words <= MASK_WORDS {
            None
        } else {
            Some(&rest[..self.words])
        };
        if !O::PROPAGATION {
            // One context for the whole loop: only the running propagator's
            // state words change from one run to the next.
            let mut ctx = Ctx::new(doms, fixed, prop_state, queue, wakeups, None);
            let mut runs = 0;
            let result = if self.words == 1 {
                // One queue word (at most 64 propagators, the common case):
                // popping is clearing its lowest bit.
                loop {
                    let queued = ctx.queue()[0];
                    if queued == 0 {
                        break Ok(());
                    }
                    ctx.queue()[0] = queued & (queued - 1);
                    let p = queued.trailing_zeros() as usize;
                    runs += 1;
                    let slot = &self.props[p];
                    ctx.run_as(slot.words);
                    match (slot.run)(&slot.prop, &mut ctx) {
                        // Fixpoint: whatever queued p since it was popped was p itself.
                        Ok(Status::Fixpoint) => ctx.queue()[0] &= !(1u64 << p),
                        Ok(Status::Changed) => {}
                        Err(_) => {
                            ctx.queue()[0] = 0;
                            observer.conflict(slot.origin);
                            break Err(slot.origin);
                        }
                    }
                }
            } else {
                loop {
                    let Some((word, bit)) = pop(ctx.queue(), enabled) else {
                        break Ok(());
                    };
                    runs += 1;
                    let slot = &self.props[word * 64 + bit];
                    ctx.run_as(slot.words);
                    match (slot.run)(&slot.prop, &mut ctx) {
                        // Fixpoint: whatever queued p since it was popped was p itself.
                        Ok(Status::Fixpoint) => ctx.queue()[word] &= !(1u64 << bit),
                        Ok(Status::Changed) => {}
                        Err(_) => {
                            ctx.queue().fill(0);
                            observer.conflict(slot.origin);
                            break Err(slot.origin);
                        }
                    }
                }
            };
            self.propagations += runs;
            return result;
        }
        loop {
            let Some((word, bit)) = pop(queue, enabled) else {
                return Ok(());
            };
            self.propagations += 1;
            let slot = &self.props[word * 64 + bit];
            let (start, end) = slot.words;
            let state = &mut prop_state[start as usize..end as usize];
            let by = slot.origin;
            let mut sink = Forward {
                observer: &mut *observer,
                by,
            };
            let mut ctx = Ctx::new(doms, fixed, state, queue, wakeups, Some(&mut sink));
            match (slot.run)(&slot.prop, &mut ctx) {
                Ok(status) => {
                    // Fixpoint: whatever queued p since it was popped was p itself.
                    if status == Status::Fixpoint {
                        queue[word] &= !(1u64 << bit);
                    }
                    observer.propagated(by);
                }
                Err(_) => {
                    queue.fill(0);
                    observer.conflict(by);
                    return Err(by);
                }
            }
        }
    }

    /// The number of `u64` words [`Engine::save`] writes.
    pub fn state_len(&self) -> usize {
        self.width
    }

    /// Copies the current state (domains and propagator state) into `into`,
    /// which must be [`Engine::state_len`] words long.
    ///
    /// # Panics
    ///
    /// If `into` has the wrong length.
    #[inline]
    pub fn save(&self, into: &mut [u64]) {
        into.copy_from_slice(&self.state[..self.width]);
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
        // One queue word (the common case) without a call to `memset`.
        match &mut self.bits[..self.words] {
            [word] => *word = 0,
            queue => queue.fill(0),
        }
    }

    /// Goes back to the root: the model's initial domains, every enabled
    /// propagator queued, as after [`Engine::new`].
    pub fn reset(&mut self) {
        self.state.copy_within(self.width.., 0);
        self.bits.copy_within(self.words..2 * self.words, 0);
    }

    /// Switches constraint `c` on or off; takes effect at the next
    /// [`Engine::reset`]. A generator that drops clues one at a time builds
    /// the engine once and switches clues off instead of rebuilding.
    /// Returns false if `c` has no propagator (it was simplified away).
    pub fn set_enabled(&mut self, c: ConstraintId, on: bool) -> bool {
        let Some(Some(p)) = self.by_constraint.get(c.index()).copied() else {
            return false;
        };
        let (word, bit) = (2 * self.words + p as usize / 64, p % 64);
        if on {
            self.bits[word] |= 1 << bit;
        } else {
            self.bits[word] &= !(1 << bit);
        }
        self.update_enabled();
        true
    }

    /// Recomputes which propagators run: the wanted ones, less those whose
    /// pruning a wanted propagator subsumes.
    fn update_enabled(&mut self) {
        let words = self.words;
        self.bits.copy_within(2 * words.., words);
        for &(redundant, by) in &self.subsumed {
            if self.bits[2 * words + by as usize / 64] >> (by % 64) & 1 == 1 {
                self.bits[words + redundant as usize / 64] &= !(1u64 << (redundant % 64));
            }
        }
        // The masks wake enabled propagators only: while all are, the full
        // masks serve (and `wake_masks` stays empty); else a filtered copy.
        let enabled = &self.bits[words..2 * words];
        let on: usize = enabled.iter().map(|w| w.count_ones() as usize).sum();
        self.wake_masks.clear();
        if on < self.props.len() && !self.wake_masks_all.is_empty() {
            self.wake_masks.extend_from_slice(&self.wake_masks_all);
            if let [on] = *enabled {
                // One word a bucket (the common case): a plain loop.
                self.wake_masks.iter_mut().for_each(|m| *m &= on);
            } else {
                for bucket in self.wake_masks.chunks_exact_mut(words) {
                    bucket.iter_mut().zip(enabled).for_each(|(m, on)| *m &= on);
                }
            }
        }
    }

    /// Whether constraint `c` takes part in propagation.
    pub fn is_enabled(&self, c: ConstraintId) -> bool {
        match self.by_constraint.get(c.index()).copied().flatten() {
            Some(p) => self.bits[2 * self.words + p as usize / 64] >> (p % 64) & 1 == 1,
            None => false,
        }
    }

    /// The constraints of the model that have a propagator, as a bitset over
    /// constraint ids.
    pub fn constraints_with_propagators(&self) -> FixedBitSet {
        let mut set = FixedBitSet::with_capacity(self.by_constraint.len());
        for (c, p) in self.by_constraint.iter().enumerate() {
            set.set(c, p.is_some());
        }
        set
    }
}

/// The wake-list bucket of `x`'s subscribers to `e` (as in
/// [`Subscriptions::on`]: `Changed`, `Bounds`, `Fixed` in that order).
fn bucket(x: VarId, e: Event) -> usize {
    3 * x.index() + e as usize
}

/// Each-value-held constraints that a domain all-different makes redundant,
/// as `(each-value-held propagator, all-different propagator)` pairs.
///
/// When an all-different at domain strength, without offsets, covers the
/// same variables as an each-value-held whose values number as many as the
/// variables and include every initial value, the two together say "a
/// permutation of those values". Régin's filtering then already fixes a
/// value's only holder (that edge is in every perfect matching, so the
/// holder's other edges lie on no alternating cycle) and fails when a value
/// has none, so the each-value-held would never prune anything: the
/// fixpoints, and so the search trees, are the same without it.
fn subsumed_pairs(model: &Model, by_constraint: &[Option<u32>], pairs: &mut Vec<(u32, u32)>) {
    for (id, c) in model.constraints() {
        let (Constraint::EachValueHeld { vars, values }, Some(p)) = (c, by_constraint[id.index()])
        else {
            continue;
        };
        let initial = vars.iter().fold(Domain::EMPTY, |d, &x| d | model.domain(x));
        if values.size() as usize != vars.len()
            || initial - *values != Domain::EMPTY
            || has_repeats(vars)
        {
            continue;
        }
        // The same variables (both lists are duplicate-free and equally long).
        let by = model.constraints().find_map(|(other, c)| match c {
            Constraint::AllDifferent {
                vars: group,
                offsets,
                strength: Strength::Domain,
            } if group.len() == vars.len()
                && offsets.iter().all(|&o| o == 0)
                && (Arc::ptr_eq(group, vars)
                    || group == vars
                    || vars.iter().all(|x| group.contains(x))) =>
            {
                by_constraint[other.index()]
            }
            _ => None,
        });
        if let Some(by) = by {
            pairs.push((p, by));
        }
    }
}

/// Puts `props`, pushed in constraint order, in queue order: by priority
/// class, constraint order inside a class (the sort by key, which is
/// unique).
///
/// With four classes a counting sort says where each slot goes; the slots
/// (large) then move along the cycles of that permutation, each swap
/// putting one in its place. Up to 64 propagators the targets fit on the
/// stack; beyond, the comparison sort serves.
fn order_by_class(props: &mut [Slot]) {
    let class = |slot: &Slot| (slot.key >> 32) as usize;
    let mut target: ArrayVec<u8, 64> = ArrayVec::new();
    if props.len() > target.capacity() {
        props.sort_unstable_by_key(|slot| slot.key);
        return;
    }
    let mut next = [0u8; 4];
    for slot in props.iter() {
        for later in &mut next[class(slot) + 1..] {
            *later += 1;
        }
    }
    for slot in props.iter() {
        let c = class(slot);
        target.push(next[c]);
        next[c] += 1;
    }
    for i in 0..props.len() {
        while usize::from(target[i]) != i {
            let j = usize::from(target[i]);
            props.swap(i, j);
            target.swap(i, j);
        }
    }
}

/// The subscriber masks that wake enabled propagators only: the filtered
/// ones if some propagator is disabled, else the full ones.
#[inline]
fn enabled_masks<'a>(filtered: &'a [u64], full: &'a [u64]) -> &'a [u64] {
    if filtered.is_empty() { full } else { filtered }
}

/// Pops the lowest queued propagator, as `(word, bit)`; given the enabled
/// set, drops the disabled ones it meets (they may have been woken).
#[inline(always)]
fn pop(queue: &mut [u64], enabled: Option<&[u64]>) -> Option<(usize, usize)> {
    loop {
        let word = queue.iter().position(|&w| w != 0)?;
        let bits = queue[word];
        let bit = bits.trailing_zeros() as usize;
        queue[word] = bits & (bits - 1);
        if enabled.is_none_or(|on| on[word] >> bit & 1 == 1) {
            return Some((word, bit));
        }
    }
}

/// Hands the context's prunings to the observer with the running constraint.
struct Forward<'o, O> {
    observer: &'o mut O,
    by: ConstraintId,
}

impl<O: Observer> PruneSink for Forward<'_, O> {
    fn pruned(&mut self, x: VarId, before: Domain, after: Domain) {
        self.observer.pruned(self.by, x, before, after);
    }
}

/// The propagator for one constraint; `None` when it always holds.
fn build(constraint: &Constraint) -> Option<AnyPropagator> {
    let unary = |x: VarId, set: Domain| Some(AnyPropagator::InSet(InSet { x, set }));
    // For a binary constraint on one variable twice: whether it holds.
    let never = |x: VarId| unary(x, Domain::EMPTY);
    match *constraint {
        Constraint::EqualValue { x, v } => unary(x, Domain::singleton(v as u8)),
        Constraint::NotEqualValue { x, v } => unary(x, !Domain::singleton(v as u8)),
        Constraint::InSet { x, set } => unary(x, set),
        Constraint::Equal { x, y } if x == y => None,
        Constraint::Equal { x, y } => Some(AnyPropagator::Equal(Equal { x, y })),
        Constraint::NotEqual { x, y } if x == y => never(x),
        Constraint::NotEqual { x, y } => {
            Some(AnyPropagator::NotDistance(NotDistance { x, y, c: 0 }))
        }
        Constraint::Offset { x, y, c } if x == y => (c != 0).then(|| never(x)).flatten(),
        Constraint::Offset { x, y, c } => Some(AnyPropagator::Offset(Offset { x, y, c })),
        Constraint::Distance { x, y, c } if x == y => (c != 0).then(|| never(x)).flatten(),
        Constraint::Distance { x, y, c } => {
            Some(AnyPropagator::Distance(Distance { x, y, c: c as u32 }))
        }
        Constraint::NotDistance { x, y, c } if x == y => (c == 0).then(|| never(x)).flatten(),
        Constraint::NotDistance { x, y, c } => Some(AnyPropagator::NotDistance(NotDistance {
            x,
            y,
            c: c as u32,
        })),
        // x < x + c holds iff c > 0.
        Constraint::Less { x, y, c } if x == y => (c <= 0).then(|| never(x)).flatten(),
        Constraint::Less { x, y, c } => Some(AnyPropagator::Less(Less { x, y, c })),
        Constraint::AllDifferent {
            ref vars,
            ref offsets,
            strength,
        } => {
            if vars.len() < 2 {
                return None;
            }
            let vars = Arc::clone(vars);
            // No offsets, or all zero: an empty list (which allocates nothing).
            let shifted = offsets.iter().any(|&o| o != 0);
            let offsets: Box<[i32]> = if shifted {
                offsets.as_slice().into()
            } else {
                Box::default()
            };
            Some(match strength {
                Strength::Value => {
                    AnyPropagator::AllDifferentValue(AllDifferentValue::new(vars, offsets))
                }
                Strength::Domain => {
                    let repeats = has_repeats(&vars);
                    AnyPropagator::AllDifferentDomain(AllDifferentDomain {
                        vars,
                        offsets,
                        repeats,
                        shifted,
                    })
                }
            })
        }
        Constraint::EachValueHeld { ref vars, values } => {
            if values.is_empty() {
                return None;
            }
            Some(AnyPropagator::EachValueHeld(EachValueHeld::new(
                Arc::clone(vars),
                values,
            )))
        }
        Constraint::Custom(ref p) => Some(AnyPropagator::Custom(p.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        m.less(x, x).expect("valid");
        let bad = m.not_equal(x, x).expect("valid");
        let mut engine = Engine::new(&m);
        // Both never hold; the first one posted reports the conflict.
        assert_eq!(engine.propagate(), Err(ConstraintId::from_index(0)));
        let _ = bad;
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
            let mut subs = Subscriptions::collecting();
            for slot in &engine.props {
                slot.prop.subscribe(&mut subs);
            }
            for (x, event) in subs.take() {
                if event != Event::Fixed {
                    expected[x.index() / 64] |= 1 << (x.index() % 64);
                }
            }
            assert_eq!(engine.weak, expected, "round {round}");
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
            let keys: Vec<u64> = engine.props.iter().map(|slot| slot.key).collect();
            assert!(keys.is_sorted(), "round {round}: {keys:?}");
            assert_eq!(keys.len(), count, "round {round}");
            let mut origins: Vec<usize> = engine.props.iter().map(|s| s.origin.index()).collect();
            origins.sort_unstable();
            assert_eq!(origins, (0..count).collect::<Vec<_>>(), "round {round}");
        }
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
}
