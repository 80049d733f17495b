//! Value-strength all-different: when a position is fixed, its (shifted)
//! value goes from every other position.
//!
//! Strength: value consistency (Oz's `FD.distinct`); misses Hall sets of
//! two or more open positions, which [`super::AllDifferentDomain`] finds.
//! Wakes on: `Event::Fixed` of every variable.
//! Idempotent: a run loops until no position it fixed is left unhandled.
//! State: one word, the positions handled (fixed, their value gone from
//! every other position): bit `i` for position `i`, or, for a group run as
//! a [`Strategy::Window`], bit `k` for the position of variable `base + k`.
//! They stay handled below in the tree, as domains only shrink, so a run
//! starts from the positions fixed since.
//!
//! # A run, and the order of its narrowings
//!
//! A run goes in rounds. The first takes the (shifted) values of the open
//! positions that are fixed; two on one value fail the run before any
//! narrowing. A round removes the values it takes from every open position
//! in position order, one restrict a position, and the first restrict that
//! would empty a domain fails the run there. A position the round leaves
//! fixed when it comes to it (a variable at two positions may be fixed
//! through the other one) is handled, and gives the next round its value;
//! two on one value fail the run once the round is done. A trace shows
//! exactly these restricts, in this order.
//!
//! # Strategies
//!
//! Settled when the propagator is built ([`Strategy`]). Each makes the
//! narrowings above, with the same result, domains, state and wake-ups:
//!
//! - [`AllDifferentValue::general`]: any group, through any [`Narrow`],
//!   restrict by restrict: every traced run, and the untraced runs of the
//!   groups the two below do not take.
//! - [`AllDifferentValue::in_place`]: a larger group of the variables
//!   `first..first + n` in order, untraced. The rounds narrow the block of
//!   domains in place without a branch on the data, and the narrowed
//!   variables are woken once at the end.
//! - [`AllDifferentValue::window`]: a small group of distinct variables
//!   within 64 of each other, without offsets, untraced. The group is a set
//!   of bits of the block of domains from its lowest variable, so the
//!   fixed variables come from one read of the fixed bits and the rounds
//!   narrow variables by their bits, without looking a position up.

use super::{at_most_one, mask};
use crate::domain::{Domain, ones};
use crate::ids::{Group, VarId};
use crate::propagator::{
    Conflict, Event, Narrow, Priority, Propagation, Status, Subscriptions, bounds_moved,
};
use crate::propagators::BuiltIn;

/// Value-strength all-different.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AllDifferentValue {
    /// The variables' place among the engine's group variables, read
    /// through the context ([`Narrow::group`]).
    pub(crate) vars: Group,
    /// The place of its offsets, one a variable, among the engine's
    /// all-different offsets, read through the context
    /// ([`Narrow::offsets`]); empty when every offset is zero.
    pub(crate) offsets: Group,
    /// How the untraced runs go.
    strategy: Strategy,
}

/// How [`AllDifferentValue`] runs when no trace records (a traced run
/// always takes [`AllDifferentValue::general`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strategy {
    /// [`AllDifferentValue::general`].
    General,
    /// [`AllDifferentValue::in_place`]: the group is the variables
    /// `first..first + n` in order. Earns its place on `queens/count/12`.
    InPlace { first: u32 },
    /// [`AllDifferentValue::window`]: distinct variables without offsets,
    /// all within `base..base + 64`, `base` the lowest; bit `k` of `group`
    /// is set when variable `base + k` is one of them. The state word's
    /// bit for the position of variable `base + k` is bit `k` (for a group
    /// in order, bit `k` is position `k`), so that a run finds the
    /// positions handled without a lookup. Earns its place on
    /// `uniqueness/check/5x5/value`.
    Window { base: u32, group: u64 },
}

/// The largest group that runs as a [`Strategy::Window`] (or, with offsets
/// or repeats, [`Strategy::General`]) and the smallest that runs in place
/// when in order: on a few positions the branches of a round are cheaper
/// than the in-place rounds' branch-free passes and their wake-up at the
/// end.
const SMALL_GROUP: usize = 7;

/// Zero offsets, for a group without any (its list is empty).
static NO_OFFSETS: [i32; 64] = [0; 64];

impl AllDifferentValue {
    /// The propagator for `vars` (not empty), placed at `group` among the
    /// engine's group variables, with its offsets at `offsets` among the
    /// engine's (empty when all are zero). (Inlined, as a build of a small
    /// puzzle pays for it.)
    #[inline(always)]
    pub(crate) fn new(vars: &[VarId], group: Group, offsets: Group) -> AllDifferentValue {
        let n = vars.len();
        // In one plain loop: whether the variables are in order, the lowest
        // and the highest, and their bits modulo 64, which rotated by the
        // lowest are the group's bits in its window, if it has one.
        let first = vars.first().map_or(0, |x| x.index());
        let (mut in_order, mut lowest, mut highest, mut bits) = (true, usize::MAX, 0, 0u64);
        for (i, x) in vars.iter().enumerate() {
            let x = x.index();
            in_order &= x == first + i;
            lowest = lowest.min(x);
            highest = highest.max(x);
            bits |= 1 << (x % 64);
        }
        // Within 64 of each other, one bit a variable: none repeats.
        let window = highest - lowest < 64 && bits.count_ones() as usize == n;
        let strategy = match (in_order, window) {
            (true, _) if n > SMALL_GROUP => Strategy::InPlace {
                first: first as u32,
            },
            (_, true) if n <= SMALL_GROUP && offsets.len() == 0 => Strategy::Window {
                base: lowest as u32,
                group: bits.rotate_right(lowest as u32 % 64),
            },
            _ => Strategy::General,
        };
        AllDifferentValue {
            vars: group,
            offsets,
            strategy,
        }
    }

    /// The offset of every position, through `ctx` (zeros when it has
    /// none).
    #[inline(always)]
    fn offsets<'a>(&self, ctx: &impl Narrow<'a>) -> &'a [i32] {
        if self.offsets.len() == 0 {
            &NO_OFFSETS[..self.vars.len()]
        } else {
            ctx.offsets(self.offsets)
        }
    }

    /// The run of any group through `ctx`, as the module documentation
    /// describes it.
    #[inline(never)]
    fn general<'a>(&self, ctx: &mut impl Narrow<'a>) -> Propagation {
        let vars = ctx.group(self.vars);
        // One length for both: one bounds check where there would be two.
        let offsets = &self.offsets(ctx)[..vars.len()];
        let all = u64::MAX >> (64 - vars.len());
        // The state word's bit for each position (see `Strategy::Window`).
        let window = match self.strategy {
            Strategy::Window { base, .. } => Some(base as usize),
            _ => None,
        };
        let bit = |i: usize| window.map_or(i, |base| vars[i].index() - base);
        let handled = *ctx.first_state_word();
        let mut open = match window {
            None => !handled & all,
            Some(_) => ones(all).fold(0, |o, i| o | (!handled >> bit(i) & 1) << i),
        };
        // The first round's values: those of the open positions fixed since
        // the last run (a domain is never empty between runs, so at most
        // one value is one value). Without a branch: whether a position is
        // fixed is data the branch predictor cannot guess.
        let (mut taken, mut clash) = (0u64, 0u64);
        for i in ones(open) {
            let d = ctx.dom(vars[i]).bits();
            let fixed = mask(at_most_one(d));
            let v = up(d, offsets[i]) & fixed;
            clash |= taken & v;
            taken |= v;
            open &= !(fixed & 1 << i);
        }
        // A fixed position's shifted value is a value (see `up`): some
        // position was fixed iff a value is taken.
        while taken != 0 {
            // Two positions fixed on one value: they cannot differ.
            if clash != 0 {
                return Err(Conflict);
            }
            // The values of the positions this round fixes, and those two
            // of them share.
            let mut next = 0u64;
            for i in ones(open) {
                let x = vars[i];
                let d = ctx.dom(x).bits();
                // A taken value is a fixed position's: it goes.
                let left = d & !down(taken, offsets[i]);
                if left != d {
                    ctx.restrict(x, Domain::from_bits(left))?;
                }
                // `left` is the domain now, not empty (else the restrict
                // failed). Fixed: by this restrict, or, for a variable at
                // two positions, through the other one.
                if left & left.wrapping_sub(1) == 0 {
                    let v = up(left, offsets[i]);
                    clash |= next & v;
                    next |= v;
                    open &= !(1 << i);
                }
            }
            taken = next;
        }
        *ctx.first_state_word() = match window {
            None => !open & all,
            Some(_) => ones(!open & all).fold(0, |h, i| h | 1 << bit(i)),
        };
        Ok(Status::Fixpoint)
    }

    /// The untraced run of a small group ([`Strategy::Window`]): the rounds
    /// of [`Self::general`] on the group's variables as bits `group` of the
    /// block of domains from `base`, with no lookup of a position.
    ///
    /// A round narrows the variables in their order, not their positions':
    /// the same narrowings, unless one would empty a domain, where the
    /// positions' order says which go before the run fails
    /// ([`Self::window_emptying`]).
    #[inline(never)]
    fn window<'a>(&self, ctx: &mut impl Narrow<'a>, base: u32, group: u64) -> Propagation {
        let base = base as usize;
        let handled = *ctx.first_state_word();
        // The variables fixed since the last run; two on one value fail.
        let fresh = ctx.fixed_range(base, 64) & group & !handled;
        let mut taken = 0u64;
        for k in ones(fresh) {
            let v = ctx.doms()[base + k];
            if taken & v != 0 {
                return Err(Conflict);
            }
            taken |= v;
        }
        // The group's other variables not handled are open (not fixed).
        let mut open = group & !handled & !fresh;
        while taken != 0 {
            // An open domain holds two values or more, so only two taken
            // values or more can empty one.
            if taken & taken.wrapping_sub(1) != 0
                && ones(open).any(|k| ctx.doms()[base + k] & !taken == 0)
            {
                return self.window_emptying(ctx, base, taken, open);
            }
            // The values of the variables this round fixes, and those two
            // of them share.
            let (mut next, mut clash) = (0u64, 0u64);
            for k in ones(open) {
                let d = ctx.doms()[base + k];
                let left = d & !taken;
                if left != d {
                    ctx.narrow_at(base + k, d, left);
                    if left & left.wrapping_sub(1) == 0 {
                        clash |= next & left;
                        next |= left;
                        open &= !(1 << k);
                    }
                }
            }
            if clash != 0 {
                return Err(Conflict);
            }
            taken = next;
        }
        *ctx.first_state_word() = group & !open;
        Ok(Status::Fixpoint)
    }

    /// The round of [`Self::window`] that takes the values `taken` from
    /// the open variables (bits `open` of the block from `base`) and would
    /// empty a domain: in position order, as restricts would, until the
    /// first domain it empties, where the run fails.
    #[cold]
    #[inline(never)]
    fn window_emptying<'a>(
        &self,
        ctx: &mut impl Narrow<'a>,
        base: usize,
        taken: u64,
        open: u64,
    ) -> Propagation {
        for &x in ctx.group(self.vars) {
            if open >> (x.index() - base) & 1 != 0 {
                ctx.restrict(x, Domain::from_bits(!taken))?;
            }
        }
        unreachable!("an open domain holds only taken values")
    }

    /// The untraced run of a group of the variables `first..first + n` in
    /// order ([`Strategy::InPlace`]; none repeats) on its block of domains
    /// ([`Narrow::block`]): the narrowings of [`Self::general`], each round
    /// one pass over the open positions without a branch on the data
    /// ([`rounds_in_place`]), then one wake-up of every narrowed variable
    /// someone listens to ([`Narrow::wake_block`]), which queues the
    /// propagators and marks the fixed variables as the restricts would
    /// have.
    #[inline(never)]
    fn in_place<'a>(&self, ctx: &mut impl Narrow<'a>, first: u32) -> Propagation {
        let first = first as usize;
        let offsets = self.offsets(ctx);
        let all = u64::MAX >> (64 - offsets.len());
        let open = !*ctx.first_state_word() & all;
        let block = ctx.block(first, offsets.len());
        // The fixed positions not handled: the first round's.
        let fresh = block.fixed & open;
        // Whether anyone listens to a narrowing that leaves a variable of
        // the group open: if not (N-queens), the rounds note only the
        // positions they fix, which earns its place on `queens/count/12`.
        let weak = block.wakes_open;
        let done = match weak {
            0 => rounds_in_place::<false>(block.doms, offsets, open, fresh),
            _ => rounds_in_place::<true>(block.doms, offsets, open, fresh),
        };
        ctx.wake_block(
            first,
            done.fixed | done.narrowed & weak,
            done.moved,
            done.fixed,
        );
        if done.result.is_ok() {
            *ctx.first_state_word() = !done.open & all;
        }
        done.result
    }
}

/// What [`rounds_in_place`] did to a block.
struct InPlace {
    /// The run's result.
    result: Propagation,
    /// The positions still open.
    open: u64,
    /// The positions narrowed and those whose bounds moved (noted only when
    /// someone listens to narrowings that leave a variable open, else
    /// zero), and those fixed.
    narrowed: u64,
    moved: u64,
    fixed: u64,
}

/// The rounds of [`AllDifferentValue::in_place`] on the group's block of
/// domains `doms` (offsets `offsets`), from the positions `fresh` among
/// `open`. `WEAK`: some variable of the group has listeners to narrowings
/// that leave it open, so the rounds note every position they narrow and
/// whether its bounds moved, not only those they fix.
#[inline(always)]
fn rounds_in_place<const WEAK: bool>(
    doms: &mut [u64],
    offsets: &[i32],
    mut open: u64,
    mut fresh: u64,
) -> InPlace {
    // One length for both: one bounds check where there would be two.
    let offsets = &offsets[..doms.len()];
    let (mut narrowed, mut moved, mut fixed) = (0u64, 0u64, 0u64);
    let result = loop {
        if fresh == 0 {
            break Ok(Status::Fixpoint);
        }
        // The fresh positions' shifted values; two on one value fail.
        let (mut taken, mut clash) = (0u64, 0u64);
        for i in ones(fresh) {
            let v = up(doms[i], offsets[i]);
            clash |= taken & v;
            taken |= v;
        }
        if clash != 0 {
            break Err(Conflict);
        }
        open &= !fresh;
        fresh = 0;
        // Each open position loses the taken values and is written back,
        // narrowed or not (about half hold a taken value: a branch on it
        // would be a coin toss). As a restrict would, the first domain that
        // would be emptied stops the narrowing: it and every later one keep
        // their values, as `go` (all ones until then, zero after) says, and
        // the run fails below.
        let mut go = u64::MAX;
        for i in ones(open) {
            let d = doms[i];
            let left = d & !(down(taken, offsets[i]) & go);
            let emptied = mask(left == 0);
            go &= !emptied;
            let left = left | d & emptied;
            doms[i] = left;
            if WEAK {
                narrowed |= u64::from(left != d) << i;
                moved |= u64::from(bounds_moved(d, left)) << i;
            }
            // An open position held two values or more, so one left with
            // one value (`left` is not empty) was fixed just now. (The
            // plain test, in one basic block with its use: see
            // `at_most_one`.)
            fresh |= u64::from(left & left.wrapping_sub(1) == 0) << i;
        }
        fixed |= fresh;
        if go == 0 {
            break Err(Conflict);
        }
    };
    InPlace {
        result,
        open,
        narrowed,
        moved,
        fixed,
    }
}

/// The values `bits` of a position with offset `c`, shifted into the shared
/// value space (`+ c`). The model keeps every value of the position plus `c`
/// within 0..=63, so no bit wraps around: the rotation is the shift, for
/// either sign of `c`, in one instruction.
#[inline(always)]
fn up(bits: u64, c: i32) -> u64 {
    bits.rotate_left(c as u32)
}

/// The shared values `bits` shifted back into the values of a position with
/// offset `c` (`- c`). A bit that wraps around lands on a value `a` with
/// `a + c` outside 0..=63, which the position never holds: within its
/// domain the rotation is the shift.
#[inline(always)]
fn down(bits: u64, c: i32) -> u64 {
    bits.rotate_right(c as u32)
}

impl BuiltIn for AllDifferentValue {
    #[inline(always)]
    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on_group(self.vars, Event::Fixed);
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn state_words(&self) -> usize {
        1
    }

    #[inline(always)]
    fn run<'a, N: Narrow<'a>>(&self, ctx: &mut N) -> Propagation {
        match self.strategy {
            // A trace sees every narrowing, one restrict at a time.
            _ if N::TRACED => self.general(ctx),
            Strategy::General => self.general(ctx),
            Strategy::InPlace { first } => self.in_place(ctx, first),
            Strategy::Window { base, group } => self.window(ctx, base, group),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::{AllDifferentValue, Strategy};
    use crate::Strength;
    use crate::check::SplitMix64;
    use crate::domain::{Domain, ones};
    use crate::ids::{ConstraintId, Group, Tags, VarId};
    use crate::propagator::{
        Conflict, Lists, OneWord, Propagation, PruneSink, Traced, Untraced, Wakeups, Words,
        fixed_bits, fixed_words,
    };
    use crate::propagators::testing::{Bench, lists, record_in, whole};
    use crate::propagators::{AnyPropagator, BuiltIn};

    /// The tags of the test models, whose variables carry tag 0.
    static NO_TAGS: Tags = Tags::new(0);

    /// Every narrowing a trace sees: variable index, before, after.
    #[derive(Default)]
    struct Seen(Vec<(usize, u64, u64)>);

    impl PruneSink for Seen {
        fn pruned(&mut self, _: ConstraintId, x: VarId, before: Domain, after: Domain) {
            self.0.push((x.index(), before.bits(), after.bits()));
        }
    }

    /// The domains, and who listens to them: a queue of `words` words of
    /// propagators, each (variable, event) bucket of `masks` waking a
    /// random set of them (the `Fixed` bucket holding the `Bounds` one,
    /// which holds the `Changed` one, as subscriptions make them), and the
    /// variables with listeners to `Changed` or `Bounds`, `wakes_open`
    /// (plus a few more, which is only slower).
    struct World {
        doms: Vec<u64>,
        masks: Vec<u64>,
        wakes_open: Vec<u64>,
        words: usize,
    }

    /// What a run left behind: the result, domains, fixed bits, queue and
    /// the positions handled (the state word read as positions).
    #[derive(Debug, PartialEq)]
    struct Left {
        result: Propagation,
        doms: Vec<u64>,
        fixed: Vec<u64>,
        queue: Vec<u64>,
        handled: u64,
    }

    /// The ways of running a propagator that are compared.
    #[derive(Clone, Copy, Debug)]
    enum How {
        /// [`BuiltIn::run`] through a recording context: the general
        /// strategy, restrict by restrict.
        Traced,
        /// [`AllDifferentValue::general`] untraced.
        General,
        /// [`BuiltIn::run`] untraced: the propagator's own strategy.
        Own,
        /// The engine's runner (one queue word only).
        Runner,
    }

    impl World {
        /// `doms` with random listeners on a queue of `words` words.
        fn new(rng: &mut SplitMix64, doms: Vec<u64>, words: usize) -> World {
            let m = doms.len();
            let mut masks = vec![0u64; 3 * m * words];
            let mut wakes_open = vec![0u64; fixed_words(m)];
            for x in 0..m {
                // Nobody listens to a narrowing that leaves x open (N-queens),
                // some do, or all of its subscribers do.
                let listeners = rng.below(3);
                for w in 0..words {
                    let on_fixed = rng.next_u64();
                    let bounds = match listeners {
                        0 => 0,
                        1 => on_fixed & rng.next_u64() & rng.next_u64(),
                        _ => on_fixed,
                    };
                    let changed = bounds & rng.next_u64();
                    for (e, bits) in [changed, bounds, on_fixed].into_iter().enumerate() {
                        masks[(3 * x + e) * words + w] = bits;
                    }
                    if bounds != 0 || rng.below(8) == 0 {
                        wakes_open[x / 64] |= 1 << (x % 64);
                    }
                }
            }
            World {
                doms,
                masks,
                wakes_open,
                words,
            }
        }

        /// Runs `p`, a propagator on `vars`, as `how` says, on these
        /// domains from the state word `state`: what it left, its state
        /// word, and the narrowings a trace saw, in order.
        fn run(
            &self,
            p: &AllDifferentValue,
            lists: Lists<'_>,
            state: u64,
            how: How,
        ) -> (Left, u64, Vec<(usize, u64, u64)>) {
            let wakeups = Wakeups {
                masks: &self.masks,
                bounds: &[],
                list: &[],
                wakes_open: &self.wakes_open,
            };
            let mut doms = self.doms.clone();
            let mut fixed = vec![0u64; fixed_words(doms.len())];
            fixed_bits(&doms, &mut fixed);
            let (mut queue, mut words) = (vec![0u64; self.words], [state]);
            let mut fixed_woken = vec![0u64; self.words];
            let mut seen = Seen::default();
            let any = AnyPropagator::AllDifferentValue(*p);
            let result = {
                let cells = Cell::from_mut(&mut queue[..]).as_slice_of_cells();
                let woken = Cell::from_mut(&mut fixed_woken[..]).as_slice_of_cells();
                let queued = Words {
                    queue: cells,
                    fixed_woken: woken,
                };
                let (doms, fixed, words) = (&mut doms, &mut fixed, &mut words[..]);
                match (how, cells) {
                    (How::Traced, _) => {
                        let inner =
                            Untraced::new(doms, fixed, words, lists, &NO_TAGS, wakeups, queued);
                        p.run(&mut Traced::new(inner, &mut seen))
                    }
                    (_, [word]) => {
                        let ctx = &mut Untraced::new(
                            doms,
                            fixed,
                            words,
                            lists,
                            &NO_TAGS,
                            wakeups,
                            OneWord(word),
                        );
                        match how {
                            How::General => p.general(ctx),
                            How::Runner => (any.shape(&[]).2)(&any, ctx),
                            _ => p.run(ctx),
                        }
                    }
                    (_, _) => {
                        let ctx = &mut Untraced::new(
                            doms, fixed, words, lists, &NO_TAGS, wakeups, queued,
                        );
                        match how {
                            How::General => p.general(ctx),
                            _ => p.run(ctx),
                        }
                    }
                }
            };
            let left = Left {
                result,
                doms,
                fixed,
                queue,
                handled: positions_handled(p, lists.groups, words[0]),
            };
            (left, words[0], seen.0)
        }
    }

    /// The positions handled that the state word `state` of `p` says.
    fn positions_handled(p: &AllDifferentValue, vars: &[VarId], state: u64) -> u64 {
        match p.strategy {
            Strategy::Window { base, .. } => (0..vars.len()).fold(0, |h, i| {
                h | (state >> (vars[i].index() - base as usize) & 1) << i
            }),
            _ => state,
        }
    }

    /// `n` distinct variables of the first `m`, in a random order.
    fn distinct_vars(rng: &mut SplitMix64, n: usize, m: usize) -> Vec<VarId> {
        let mut order: Vec<u32> = (0..m as u32).collect();
        for i in (1..m).rev() {
            order.swap(i, rng.below(i + 1));
        }
        order[..n].iter().map(|&x| VarId::new(0, x)).collect()
    }

    /// A random group of 1 to 64 positions (in order, scattered within 64
    /// variables or over more, or with repeats), its offsets (none, none
    /// negative, or of either sign), and domains for its variables and a
    /// few others, of values that stay within 0..=63 shifted, as the model
    /// keeps them.
    fn random_case(rng: &mut SplitMix64) -> (Vec<VarId>, Box<[i32]>, Vec<u64>) {
        let n = 1 + rng.below(64);
        let (vars, m) = match rng.below(4) {
            0 => {
                let first = rng.below(40);
                let vars = (first..first + n).map(|x| VarId::new(0, x as u32));
                (vars.collect(), first + n + rng.below(4))
            }
            1 => {
                // Within 64 of each other, or spread over up to 103.
                let spread = [4, 40][rng.below(2)];
                let m = n + rng.below(spread);
                (distinct_vars(rng, n, m), m)
            }
            2 => {
                // A small group (as most are) within 64, or spread wider.
                let n = 1 + rng.below(8);
                let spread = [20, 100][rng.below(2)];
                let m = n + rng.below(spread);
                (distinct_vars(rng, n, m), m)
            }
            _ => {
                let m = 1 + rng.below(n);
                let vars = (0..n).map(|_| VarId::new(0, rng.below(m) as u32));
                (vars.collect(), m)
            }
        };
        let n = vars.len();
        let (offsets, lowest, highest): (Box<[i32]>, _, _) = match rng.below(3) {
            0 => (Box::default(), 0, 64),
            1 => ((0..n).map(|_| rng.below(16) as i32).collect(), 16, 48),
            _ => ((0..n).map(|_| rng.below(32) as i32 - 16).collect(), 16, 48),
        };
        // Values `lo..lo + span`: few or many for the group's size.
        let span = 2 + rng.below((n + 8).min(highest - lowest - 2));
        let lo = lowest + rng.below(highest - lowest - span + 1);
        let doms = (0..m)
            .map(|_| {
                let value = |rng: &mut SplitMix64| 1u64 << (lo + rng.below(span));
                match rng.below(10) {
                    0 => value(rng),
                    _ => {
                        let many =
                            rng.next_u64() & rng.next_u64() & (u64::MAX >> (64 - span)) << lo;
                        many | value(rng) | value(rng)
                    }
                }
            })
            .collect();
        (vars, offsets, doms)
    }

    /// A random value of `d` (not empty).
    fn some_value(rng: &mut SplitMix64, d: u64) -> u64 {
        let mut rest = d;
        for _ in 0..rng.below(d.count_ones() as usize) {
            rest &= rest - 1;
        }
        rest & rest.wrapping_neg()
    }

    /// A search's step before a run: one to three variables of `vars`
    /// fixed, as decisions and other propagators do, and now and then a
    /// value removed elsewhere. Returns whether it fixed several.
    fn search_step(rng: &mut SplitMix64, vars: &[VarId], doms: &mut [u64]) -> bool {
        let fix = 1 + rng.below(3);
        for _ in 0..fix {
            let x = vars[rng.below(vars.len())].index();
            doms[x] = some_value(rng, doms[x]);
        }
        if rng.below(4) == 0 {
            let x = rng.below(doms.len());
            let d = doms[x];
            doms[x] = d & !some_value(rng, d) | d & d.wrapping_neg();
        }
        fix > 1
    }

    /// The run the module documentation describes, restrict by restrict,
    /// on plain domains `doms` from the positions handled `handled`: the
    /// narrowings in order (variable, before, after), the positions
    /// handled (`None` if the run fails), and whether a round after the
    /// first narrowed.
    fn as_documented(
        vars: &[VarId],
        offsets: &[i32],
        doms: &mut [u64],
        handled: u64,
    ) -> (Vec<(usize, u64, u64)>, Option<u64>, bool) {
        let offset = |i: usize| offsets.get(i).copied().unwrap_or(0);
        let shifted = |d: u64, c: i32| {
            ones(d).fold(0u64, |s, a| match a as i32 + c {
                v @ 0..=63 => s | 1 << v,
                _ => s,
            })
        };
        let fixed = |d: u64| d.count_ones() == 1;
        let (mut seen, mut first_round) = (Vec::new(), None);
        let mut open: Vec<bool> = (0..vars.len()).map(|i| handled >> i & 1 == 0).collect();
        // The first round's positions: the open ones fixed.
        let mut fresh: Vec<usize> = (0..vars.len())
            .filter(|&i| open[i] && fixed(doms[vars[i].index()]))
            .collect();
        let failed = 'run: {
            while !fresh.is_empty() {
                let mut taken = 0u64;
                for &i in &fresh {
                    let v = shifted(doms[vars[i].index()], offset(i));
                    if taken & v != 0 {
                        break 'run true;
                    }
                    taken |= v;
                    open[i] = false;
                }
                fresh.clear();
                for i in 0..vars.len() {
                    if !open[i] {
                        continue;
                    }
                    let x = vars[i].index();
                    let left = doms[x] & !shifted(taken, -offset(i));
                    if left == 0 {
                        break 'run true;
                    }
                    if left != doms[x] {
                        seen.push((x, doms[x], left));
                        doms[x] = left;
                    }
                    if fixed(left) {
                        fresh.push(i);
                        open[i] = false;
                    }
                }
                // How many narrowings the first round made.
                first_round = first_round.or(Some(seen.len()));
            }
            false
        };
        let later = first_round.is_some_and(|f| f < seen.len());
        let handled = (0..vars.len()).fold(0, |h, i| h | u64::from(!open[i]) << i);
        (seen, (!failed).then_some(handled), later)
    }

    #[test]
    fn a_traced_run_narrows_as_the_module_doc_says() {
        // Random groups of 1 to 64 positions of every shape, offsets of
        // either sign or none, run after a search's step at a time: the
        // traced run's narrowings, in order, its result and the positions
        // it handled are those of the run the module doc describes.
        let mut rng = SplitMix64::new(7);
        let (mut narrowings, mut conflicts, mut rounds) = (0, 0, 0);
        for _ in 0..3_000 {
            let (vars, offsets, mut doms) = random_case(&mut rng);
            let p = AllDifferentValue::new(&vars, whole(&vars), whole(&offsets));
            let mut state = [0u64];
            for _ in 0..vars.len() + 3 {
                search_step(&mut rng, &vars, &mut doms);
                let what = format!("{p:?} on {doms:?} from {state:?}");
                let handled = positions_handled(&p, &vars, state[0]);
                let mut expected = doms.clone();
                let (trace, end, later) = as_documented(&vars, &offsets, &mut expected, handled);
                let (result, seen) =
                    record_in(lists(&vars, &offsets), &mut doms, &mut state, |ctx| {
                        p.run(ctx)
                    });
                assert_eq!(seen, trace, "{what}");
                assert_eq!(result.is_ok(), end.is_some(), "{what}");
                narrowings += usize::from(!seen.is_empty());
                rounds += usize::from(later);
                let Some(handled) = end else {
                    conflicts += 1;
                    break;
                };
                let now = positions_handled(&p, &vars, state[0]);
                assert_eq!((&doms, now), (&expected, handled), "{what}");
            }
        }
        assert!(
            narrowings > 5_000 && conflicts > 1_000 && rounds > 500,
            "the cases cover narrowings ({narrowings}), conflicts ({conflicts}) \
             and runs of several rounds ({rounds})"
        );
    }

    #[test]
    fn every_strategy_narrows_and_wakes_as_the_general_one_does() {
        // Random groups of 1 to 64 positions (in order, scattered, with
        // repeats; offsets none, none negative or of either sign), random
        // domains and listeners, a search's step before each run: the
        // propagator as built and, where the group allows, the same one
        // made to run in place or as a window (so every strategy meets
        // groups of every size it can serve). Each step, the general
        // strategy through a recording context sets what every other run
        // must leave: the general one untraced, the strategy's own run, and
        // the engine's runner on one queue word. Same result, domains,
        // fixed bits, queue and positions handled; and every form of the
        // propagator leaves the same, with the same trace.
        let mut rng = SplitMix64::new(41);
        let mut runs = std::collections::BTreeMap::<&str, [usize; 4]>::new();
        let (mut several, mut largest, mut negative, mut repeats) = (0, 0, 0, 0);
        for _ in 0..3_000 {
            let (vars, offsets, doms) = random_case(&mut rng);
            let n = vars.len();
            let p = AllDifferentValue::new(&vars, whole(&vars), whole(&offsets));
            let mut forms = vec![p];
            if let Some(first) = crate::propagator::in_order_from(&vars) {
                let first = first as u32;
                let strategy = Strategy::InPlace { first };
                forms.push(AllDifferentValue { strategy, ..p });
            }
            let base = vars.iter().map(|x| x.index()).min().unwrap_or(0);
            let group = vars.iter().fold(0u64, |g, x| match x.index() - base {
                k @ 0..64 => g | 1 << k,
                _ => u64::MAX,
            });
            if offsets.is_empty() && group != u64::MAX && group.count_ones() as usize == n {
                let strategy = Strategy::Window {
                    base: base as u32,
                    group,
                };
                forms.push(AllDifferentValue { strategy, ..p });
            }
            forms.dedup_by_key(|q| q.strategy);
            largest += usize::from(n == 64);
            negative += usize::from(offsets.iter().any(|&c| c < 0));
            repeats += usize::from(crate::propagator::has_repeats(&vars));
            // One queue word (the engine's runner) twice as often as two.
            let words = 1 + usize::from(rng.below(3) == 0);
            let mut world = World::new(&mut rng, doms, words);
            let mut states = vec![0u64; forms.len()];
            for _ in 0..n + 3 {
                several += usize::from(search_step(&mut rng, &vars, &mut world.doms));
                let mut first: Option<(Left, Vec<_>)> = None;
                for (q, state) in forms.iter().zip(&mut states) {
                    let (expected, after, trace) =
                        world.run(q, lists(&vars, &offsets), *state, How::Traced);
                    let what = format!("{q:?} on {:?} from {state:#x}", world.doms);
                    let mut hows = vec![How::General, How::Own];
                    if words == 1 {
                        hows.push(How::Runner);
                    }
                    for how in hows {
                        let (left, own_after, _) =
                            world.run(q, lists(&vars, &offsets), *state, how);
                        assert_eq!(left, expected, "{how:?}: {what}");
                        assert_eq!(own_after, after, "{how:?}, state word: {what}");
                    }
                    let name = match q.strategy {
                        Strategy::General => "general",
                        Strategy::InPlace { .. } => "in place",
                        Strategy::Window { .. } => "window",
                    };
                    let counts = runs.entry(name).or_default();
                    counts[0] += 1;
                    counts[1] +=
                        usize::from(expected.result.is_ok() && expected.doms != world.doms);
                    counts[2] += usize::from(expected.result.is_err());
                    counts[3] += usize::from(n > 8);
                    *state = after;
                    match &first {
                        None => first = Some((expected, trace)),
                        Some(one) => assert_eq!(*one, (expected, trace), "every form: {what}"),
                    }
                }
                match first {
                    Some((
                        Left {
                            result: Ok(_),
                            doms,
                            ..
                        },
                        _,
                    )) => world.doms = doms,
                    _ => break,
                }
            }
        }
        assert!(
            runs.len() == 3
                && runs
                    .values()
                    .all(|&[r, n, c, large]| r > 4_000 && n > 1_500 && c > 300 && large > 2_000),
            "the cases cover every strategy, narrowing and failing, on large groups too \
             (runs, narrowings, conflicts, larger than 8): {runs:?}"
        );
        assert!(
            several > 10_000 && largest > 10 && negative > 500 && repeats > 500,
            "the cases cover several fixed at once ({several}), groups of 64 ({largest}), \
             negative offsets ({negative}) and repeats ({repeats})"
        );
    }

    #[test]
    fn a_window_that_empties_a_domain_narrows_first_what_comes_first() {
        // Positions x3, x0, x1, x2: fixing x1 = 1 and x2 = 2 takes both
        // values from x3 = {2, 3} (position 0) and x0 = {1, 2} (position
        // 1). In position order x3 loses 2 and only then x0 is emptied, so
        // the run fails with x3 fixed to 3; in the variables' order x0
        // would fail first and leave x3 as it was.
        let vars: Vec<VarId> = [3, 0, 1, 2].into_iter().map(|x| VarId::new(0, x)).collect();
        let p = AllDifferentValue::new(&vars, whole(&vars), Group::default());
        assert!(matches!(p.strategy, Strategy::Window { .. }));
        let mut rng = SplitMix64::new(3);
        let world = World::new(&mut rng, vec![0b110, 0b10, 0b100, 0b1100], 1);
        let (expected, _, trace) = world.run(&p, lists(&vars, &[]), 0, How::Traced);
        assert_eq!(expected.result, Err(Conflict));
        assert_eq!(trace, [(3, 0b1100, 0b1000)]);
        assert_eq!(world.run(&p, lists(&vars, &[]), 0, How::Runner).0, expected);
    }

    #[test]
    fn groups_take_the_strategy_their_shape_and_size_call_for() {
        let strategy = |vars: &[u32], offsets: &[i32]| {
            let vars: Vec<VarId> = vars.iter().map(|&x| VarId::new(0, x)).collect();
            AllDifferentValue::new(&vars, whole(&vars), whole(offsets)).strategy
        };
        let in_order: Vec<u32> = (3..13).collect();
        assert_eq!(strategy(&in_order, &[]), Strategy::InPlace { first: 3 });
        assert_eq!(
            strategy(&in_order, &[1; 10]),
            Strategy::InPlace { first: 3 }
        );
        let window = Strategy::Window {
            base: 61,
            group: 0b101 | 1 << 62,
        };
        assert_eq!(strategy(&[63, 61, 123], &[]), window);
        assert_eq!(
            strategy(&[3, 4, 5], &[]),
            Strategy::Window {
                base: 3,
                group: 0b111
            }
        );
        let reversed: Vec<u32> = in_order[..9].iter().rev().copied().collect();
        let general: [(&[u32], &[i32]); 4] = [
            (&[3, 4, 5], &[0, 1, 0]),
            (&[3, 4, 3], &[]),
            (&[60, 124], &[]),
            (&reversed, &[]),
        ];
        for (vars, offsets) in general {
            assert_eq!(strategy(vars, offsets), Strategy::General, "{vars:?}");
        }
    }

    #[test]
    fn value_strength_removes_fixed_values_only() {
        let mut b = Bench::new(&[(1, 1), (1, 2), (1, 2), (1, 3)]);
        let vars = [b.var(0), b.var(1), b.var(2), b.var(3)];
        b.model
            .all_different(&vars, Strength::Value)
            .expect("valid");
        // x0 = 1 fixes x1 = 2 and x2 = 2: a conflict found by value strength.
        assert!(b.run().is_err());
    }

    #[test]
    fn value_strength_misses_a_hall_set_that_domain_strength_finds() {
        for (strength, expected) in [(Strength::Value, "{1..3}"), (Strength::Domain, "{3}")] {
            let mut b = Bench::new(&[(1, 2), (1, 2), (1, 3)]);
            let vars = [b.var(0), b.var(1), b.var(2)];
            b.model.all_different(&vars, strength).expect("valid");
            b.run().expect("no conflict");
            b.assert_dom(vars[2], expected);
        }
    }

    #[test]
    fn value_strength_checks_every_position_of_a_repeated_variable() {
        // Found by the search property test: x1 occurs at positions 0 and 2
        // with the same offset, so the constraint never holds. Fixing x3 = 7
        // fixes x1 = 6 through position 1; positions 0 and 2 must still be
        // compared, though removing 7 from them changed nothing.
        let mut b = Bench::new(&[(6, 8), (7, 7)]);
        let (x1, x3) = (b.var(0), b.var(1));
        b.model
            .all_different_offsets(&[x1, x1, x1, x3], &[0, -1, 0, 0], Strength::Value)
            .expect("valid");
        assert!(b.run().is_err());
    }
}
