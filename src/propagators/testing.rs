//! A small harness for propagator unit tests: a model of variables `x0`,
//! `x1`, ... with given ranges, run to the root fixpoint, then domains
//! checked by their printed form.

use std::cell::Cell;

/// The tags of the test models, whose variables carry tag 0.
static NO_TAGS: Tags = Tags::new(0);

use super::AnyPropagator;
use crate::ids::{Group, Tags};
use crate::propagator::{
    Ctx, Event, Lists, OneWord, Propagation, Propagator, PruneSink, Status, Subscriptions, Traced,
    Untraced, Wakeups, Words,
};
use crate::{ConstraintId, Domain, Engine, Model, VarId};

/// A user's propagator that waits for its variable to be fixed and never
/// prunes: for tests of how custom propagators are kept and handed back.
#[derive(Debug)]
pub(crate) struct Watch(pub(crate) VarId);

impl Propagator for Watch {
    fn name(&self) -> &'static str {
        "watch"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on(self.0, Event::Fixed);
    }

    fn propagate(&self, _: &mut Ctx<'_>) -> Propagation {
        Ok(Status::Fixpoint)
    }
}

pub(crate) struct Bench {
    pub(crate) model: Model,
    engine: Option<Engine>,
}

impl Bench {
    pub(crate) fn new(ranges: &[(i64, i64)]) -> Bench {
        let mut model = Model::new();
        for (i, &(lo, hi)) in ranges.iter().enumerate() {
            model
                .int_var(&format!("x{i}"), lo, hi)
                .expect("valid range");
        }
        Bench {
            model,
            engine: None,
        }
    }

    pub(crate) fn var(&self, i: usize) -> VarId {
        self.model.vars().nth(i).expect("declared variable")
    }

    /// Builds the engine and propagates to the root fixpoint.
    pub(crate) fn run(&mut self) -> Result<(), ConstraintId> {
        let mut engine = Engine::new(&self.model);
        let result = engine.propagate();
        self.engine = Some(engine);
        result
    }

    pub(crate) fn assert_dom(&self, x: VarId, expected: &str) {
        let engine = self.engine.as_ref().expect("run() first");
        assert_eq!(
            engine.dom(x).to_string(),
            expected,
            "domain of {}",
            self.model.name(x)
        );
    }
}

/// Every narrowing, as the trace would see it: variable index, before, after.
#[derive(Default)]
struct Prunings(Vec<(usize, u64, u64)>);

impl PruneSink for Prunings {
    fn pruned(&mut self, _: ConstraintId, x: VarId, before: Domain, after: Domain) {
        self.0.push((x.index(), before.bits(), after.bits()));
    }
}

/// Runs `run` in a traced context on the domains `doms` and propagator
/// state `state`, with no wake-ups and the lists `lists`, and
/// returns its result and the narrowings it made, in order.
pub(crate) fn record_in<R>(
    lists: Lists<'_>,
    doms: &mut [u64],
    state: &mut [u64],
    run: impl FnOnce(&mut Traced<'_, '_>) -> R,
) -> (R, Vec<(usize, u64, u64)>) {
    // One queue word: wake-ups go through masks, all empty here.
    let masks = vec![0u64; 3 * doms.len()];
    let wakes_open = vec![0u64; crate::propagator::fixed_words(doms.len())];
    let wakeups = Wakeups {
        masks: &masks,
        bounds: &[],
        list: &[],
        wakes_open: &wakes_open,
    };
    let (mut queue, mut fixed_woken) = ([0u64; 1], [0u64; 1]);
    let queue = Words {
        queue: Cell::from_mut(&mut queue[..]).as_slice_of_cells(),
        fixed_woken: Cell::from_mut(&mut fixed_woken[..]).as_slice_of_cells(),
    };
    let mut seen = Prunings::default();
    let mut fixed = vec![0u64; crate::propagator::fixed_words(doms.len())];
    crate::propagator::fixed_bits(doms, &mut fixed);
    let inner = Untraced::new(doms, &mut fixed, state, lists, &NO_TAGS, wakeups, queue);
    let mut ctx = Traced::new(inner, &mut seen);
    let result = run(&mut ctx);
    (result, seen.0)
}

/// What a run left behind, for comparing two ways of running: the result,
/// the domains, the fixed-variable bitset and the queue.
pub(crate) type Outcome<R> = (R, Vec<u64>, Vec<u64>, u64);

/// The propagator `p` as the engine keeps it.
pub(crate) fn stored<P: Clone + Into<AnyPropagator>>(p: &P) -> AnyPropagator {
    p.clone().into()
}

/// Runs `p` on the domains `doms` (at most 21 variables) and propagator
/// state `state` as the engine would, untraced (through its runner) or
/// traced, and returns what it left. Every variable `x` has its own
/// subscriber to being fixed, bit `3x + 2` of the queue, and if bit `x` of
/// `wakes_open` is set two more, bits `3x` (any change) and `3x + 1` (bounds),
/// woken as the engine's masks wake them: so the queue says which events
/// each variable had that someone listens to.
pub(crate) fn run_with_events(
    doms: &[u64],
    state: &mut [u64],
    traced: bool,
    wakes_open: u64,
    p: &AnyPropagator,
) -> Outcome<Propagation> {
    run_with_events_in(Lists::groups(&[]), doms, state, traced, wakes_open, p)
}

/// [`run_with_events`] with the lists `lists`.
pub(crate) fn run_with_events_in(
    lists: Lists<'_>,
    doms: &[u64],
    state: &mut [u64],
    traced: bool,
    wakes_open: u64,
    p: &AnyPropagator,
) -> Outcome<Propagation> {
    if traced {
        run_traced_in(lists, doms, state, wakes_open, |ctx| p.run(ctx))
    } else {
        let (_, _, runner) = p.shape(lists.customs);
        run_untraced_in(lists, doms, state, wakes_open, |ctx| runner(p, ctx))
    }
}

/// The subscriber masks of [`run_with_events`] for `n` variables, and the
/// wakes-open bitset.
fn event_masks(n: usize, wakes_open: u64) -> (Vec<u64>, [u64; 2]) {
    assert!(n <= 21, "three queue bits a variable in one word");
    let masks = (0..3 * n)
        .map(|b| {
            let (x, event) = (b / 3, b % 3);
            // Event e wakes the subscribers to e and to every weaker event.
            (0..=event)
                .filter(|&e| e == 2 || wakes_open >> x & 1 == 1)
                .fold(0, |m, e| m | 1 << (3 * x + e))
        })
        .collect();
    (masks, [wakes_open & (u64::MAX >> (64 - n.max(1))), 0])
}

/// Runs `run` in an untraced one-word context on `doms` and `state`, with
/// the wake-ups of [`run_with_events`]; returns what it left.
pub(crate) fn run_untraced_in<R>(
    lists: Lists<'_>,
    doms: &[u64],
    state: &mut [u64],
    wakes_open: u64,
    run: impl for<'a> FnOnce(&mut Untraced<'a, OneWord<'a>>) -> R,
) -> Outcome<R> {
    let (masks, wakes_open) = event_masks(doms.len(), wakes_open);
    let wakeups = Wakeups {
        masks: &masks,
        bounds: &[],
        list: &[],
        wakes_open: &wakes_open,
    };
    let mut doms = doms.to_vec();
    let mut queue = [0u64; 1];
    let mut fixed = vec![0u64; crate::propagator::fixed_words(doms.len())];
    crate::propagator::fixed_bits(&doms, &mut fixed);
    let result = {
        let cells = Cell::from_mut(&mut queue[..]).as_slice_of_cells();
        let word = OneWord(&cells[0]);
        run(&mut Untraced::new(
            &mut doms, &mut fixed, state, lists, &NO_TAGS, wakeups, word,
        ))
    };
    (result, doms, fixed, queue[0])
}

/// As [`run_untraced_in`], in a traced context.
pub(crate) fn run_traced_in<R>(
    lists: Lists<'_>,
    doms: &[u64],
    state: &mut [u64],
    wakes_open: u64,
    run: impl FnOnce(&mut Traced<'_, '_>) -> R,
) -> Outcome<R> {
    let (masks, wakes_open) = event_masks(doms.len(), wakes_open);
    let wakeups = Wakeups {
        masks: &masks,
        bounds: &[],
        list: &[],
        wakes_open: &wakes_open,
    };
    let mut doms = doms.to_vec();
    let (mut queue, mut fixed_woken) = ([0u64; 1], [0u64; 1]);
    let mut fixed = vec![0u64; crate::propagator::fixed_words(doms.len())];
    crate::propagator::fixed_bits(&doms, &mut fixed);
    let result = {
        let cells = Cell::from_mut(&mut queue[..]).as_slice_of_cells();
        let woken = Cell::from_mut(&mut fixed_woken[..]).as_slice_of_cells();
        let mut seen = Prunings::default();
        let inner = Untraced::new(
            &mut doms,
            &mut fixed,
            state,
            lists,
            &NO_TAGS,
            wakeups,
            Words {
                queue: cells,
                fixed_woken: woken,
            },
        );
        run(&mut Traced::new(inner, &mut seen))
    };
    (result, doms, fixed, queue[0])
}

/// The variables `first..first + n`, in order: a group declared together.
pub(crate) fn group_in_order(first: usize, n: usize) -> Vec<VarId> {
    (first..first + n)
        .map(|x| VarId::new(0, x as u32))
        .collect()
}

/// `count` random domains, each of `fewest` to `fewest + 2` draws from
/// the values `lowest..lowest + span`.
pub(crate) fn random_domains(
    rng: &mut crate::check::SplitMix64,
    count: usize,
    fewest: usize,
    lowest: usize,
    span: usize,
) -> Vec<u64> {
    (0..count)
        .map(|_| (0..fewest + rng.below(3)).fold(0, |d, _| d | 1 << (lowest + rng.below(span))))
        .collect()
}

/// The place of a group that is the whole of its list (a test's
/// propagator, run with that list lent as the group variables or the
/// offsets).
pub(crate) fn whole<T>(list: &[T]) -> Group {
    Group {
        start: 0,
        len: list.len() as u32,
    }
}

/// The lists of a context that lends a propagator the group variables
/// `groups` and the offsets `offsets` (each at [`whole`]).
pub(crate) fn lists<'a>(groups: &'a [VarId], offsets: &'a [i32]) -> Lists<'a> {
    Lists {
        offsets,
        ..Lists::groups(groups)
    }
}
