//! Value-strength all-different: when a position is fixed, its (shifted)
//! value goes from every other position.
//!
//! Strength: value consistency (Oz's `FD.distinct`); misses Hall sets of
//! two or more open positions, which [`super::AllDifferentDomain`] finds.
//! Wakes on: `Event::Fixed` of every variable.
//! Idempotent: a run loops until no position it fixed is left unhandled.
//! State: one word, the positions already handled (for a small group of
//! distinct variables within 32 of each other, run as
//! `Run::OnePassWindow`, the variables already handled).

use super::{at_most_one, mask, shift};
use crate::domain::Domain;
use crate::domain::ones;
use crate::ids::Group;
use crate::ids::VarId;
use crate::propagator::{
    Conflict, Event, Narrow, Priority, Propagation, Status, Subscriptions, bounds_moved,
    has_repeats, in_order_from,
};
use crate::propagators::BuiltIn;

/// Value-strength all-different.
#[derive(Clone, Debug)]
pub(crate) struct AllDifferentValue {
    /// The variables' place among the engine's group variables, read
    /// through the context ([`Narrow::group`]).
    pub(crate) vars: Group,
    /// One offset a variable, or none at all when every offset is zero.
    pub(crate) offsets: Box<[i32]>,
    /// `Some(base)` when every variable is one of `base..base + 64` (then
    /// one read, [`Narrow::fixed_range`], says which are fixed), `base` the
    /// lowest.
    window: Option<u32>,
    /// The window's `base` when there is one (the first variable of a
    /// group in order), else zero: the runs that have a window read it
    /// here, without testing `window`. (Measured, with the runner below:
    /// classic zebra at value strength 26,788 -> 26,412 instructions, Oz
    /// zebra 46,106 -> 45,141, 10-queens' `in_place` 12.30M -> 12.03M a
    /// solve; the propagator stays within the 48 bytes of the largest
    /// kind, and the engine's matches on the kind got cheaper too, the
    /// classic zebra at domain strength 34,675 -> 34,388, as `window`'s
    /// tag no longer holds the kind's niche alone.)
    base: u32,
    /// When every variable is one of `base..base + 32`: bit `k` set when
    /// variable `base + k` is one of the group's; else zero. (32 bits, not
    /// 64: they fit beside the other fields in the 48 bytes the largest
    /// propagator kind takes without them.)
    group: u32,
    /// Whether the variables are `base, base + 1, ...` in order (see
    /// [`in_order_from`]).
    in_order: bool,
    /// Whether a variable occurs at two positions.
    repeats: bool,
    /// Whether some offset is negative.
    negative: bool,
    /// How a run goes: settled here, from the fields above, so that a run
    /// starts with one decision (whether a trace records) at most.
    run: Run,
}

/// The ways [`AllDifferentValue`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    /// A small group ([`SMALL_GROUP`]) without offsets, of the variables
    /// `first..first + n` in order: untraced, as a group in a window
    /// ([`AllDifferentValue::window_run`]: its bits in the window
    /// are its positions, so its state word is the same either way), else
    /// [`AllDifferentValue::one_pass`] with the fixed positions read in
    /// one go,
    OnePassInOrder,
    /// ... of distinct variables within 32 of each other (see
    /// [`AllDifferentValue::group`]): [`AllDifferentValue::window_run`],
    OnePassWindow,
    /// ... otherwise without offsets or repeats (the fixed positions
    /// gathered from one read when within 64 of each other),
    OnePass,
    /// ... with offsets,
    OnePassShifted,
    /// ... with a variable at two positions,
    OnePassRepeats,
    /// ... with both.
    OnePassShiftedRepeats,
    /// A larger group of the variables `first..first + n` in order (see
    /// [`AllDifferentValue::in_order`]) without offsets:
    /// [`AllDifferentValue::in_place`] while no trace records, else
    /// [`AllDifferentValue::in_rounds`],
    InOrder,
    /// ... with offsets, none negative,
    InOrderNonNegative,
    /// ... with offsets, some negative (settled here rather than in the
    /// run: that saves every run a few tests).
    InOrderShifted,
    /// Any other larger group: [`AllDifferentValue::in_rounds`].
    Rounds,
}

impl Run {
    /// The one-pass run for a group with offsets or not (`shifted`), with
    /// a repeated variable or not, and whose variables are in order, in a
    /// window of 64 or neither (`source`), the window's bits `group` (see
    /// [`AllDifferentValue::group`]).
    fn one_pass(shifted: bool, repeats: bool, source: u8, group: u32) -> Run {
        match (shifted, repeats) {
            (false, false) if source == IN_ORDER => Run::OnePassInOrder,
            (false, false) if source == WINDOW && group != 0 => Run::OnePassWindow,
            (false, false) => Run::OnePass,
            (true, false) => Run::OnePassShifted,
            (false, true) => Run::OnePassRepeats,
            (true, true) => Run::OnePassShiftedRepeats,
        }
    }
}

impl AllDifferentValue {
    /// The propagator for `vars`, placed at `group` among the engine's
    /// group variables, with `offsets` (empty when all are zero).
    /// (Inlined: out of line it cost an Oz zebra build about 400
    /// instructions more.)
    #[inline(always)]
    pub(crate) fn new(vars: &[VarId], group: Group, offsets: Box<[i32]>) -> AllDifferentValue {
        let in_order = in_order_from(vars).is_some();
        // The lowest and highest variable (a plain loop: on a handful of
        // variables, iterator `min` and `max` vectorize into more code).
        // With them, the variables' bits modulo 64, which rotated by the
        // lowest are the group's bits in its window, if it has one.
        let (mut lowest, mut highest, mut bits) = (usize::MAX, 0, 0u64);
        for x in vars.iter() {
            lowest = lowest.min(x.index());
            highest = highest.max(x.index());
            bits |= 1 << (x.index() % 64);
        }
        let window = (highest.wrapping_sub(lowest) < 64).then_some(lowest as u32);
        let bits_in_window = match window {
            Some(_) if highest - lowest < 32 => bits.rotate_right(lowest as u32 % 64) as u32,
            _ => 0,
        };
        let repeats = !in_order && has_repeats(vars);
        let run = match in_order {
            _ if vars.len() <= SMALL_GROUP => Run::one_pass(
                !offsets.is_empty(),
                repeats,
                source(in_order, window),
                bits_in_window,
            ),
            true if offsets.is_empty() => Run::InOrder,
            true if offsets.iter().all(|&c| c >= 0) => Run::InOrderNonNegative,
            true => Run::InOrderShifted,
            false => Run::Rounds,
        };
        AllDifferentValue {
            window,
            base: window.unwrap_or(0),
            group: bits_in_window,
            in_order,
            repeats,
            negative: offsets.iter().any(|&c| c < 0),
            run,
            vars: group,
            offsets,
        }
    }

    /// The positions of `open` whose variables (of `vars`, the group's)
    /// are fixed, found as `SOURCE` says ([`ANY_GROUP`]: as the group's
    /// shape allows).
    #[inline(always)]
    fn fixed_among<'a, const SOURCE: u8>(
        &self,
        ctx: &impl Narrow<'a>,
        vars: &[VarId],
        open: u64,
    ) -> u64 {
        // A group `IN_ORDER` or in a `WINDOW` has a window (see `source`).
        let base = self.base as usize;
        let source = match SOURCE {
            ANY_GROUP => source(self.in_order, self.window),
            _ => SOURCE,
        };
        match source {
            // Position k is variable `base + k`.
            IN_ORDER => ctx.fixed_range(base, self.vars.len()) & open,
            // Bit k of the read: variable `base + k` is fixed.
            WINDOW => self.positions_of(vars, ctx.fixed_range(base, 64), open),
            _ => {
                // Scattered over more than 64 variables: a domain at a time.
                let mut fresh = 0u64;
                for i in ones(open) {
                    fresh |= u64::from(at_most_one(ctx.dom(vars[i]).bits())) << i;
                }
                fresh
            }
        }
    }

    /// The whole run for a small group (see [`SMALL_GROUP`]), in one pass a
    /// round: each open position in turn loses the taken values and, if
    /// that leaves it fixed (or, when a variable occurs twice, `REPEATS`,
    /// its variable was fixed through another position), joins the next
    /// round's fresh ones.
    #[inline(never)]
    fn one_pass<'a, N: Narrow<'a>, const SHIFTED: bool, const REPEATS: bool, const SOURCE: u8>(
        &self,
        ctx: &mut N,
        vars: &[VarId],
    ) -> Propagation {
        // Without offsets (`SHIFTED` false, the list is empty) every shift
        // is by zero, and compiles away.
        let offset = |i: usize| if SHIFTED { self.offsets[i] } else { 0 };
        let all = u64::MAX >> (64 - self.vars.len());
        // Bit i set: position i is fixed and its value is gone from the
        // others. (`WINDOW`, from `Run::OnePassWindow` alone, keeps the
        // variables handled instead: see `window_run`.)
        let handled = *ctx.first_state_word();
        let mut open = if SOURCE == WINDOW {
            self.positions_of(vars, !handled, all)
        } else {
            !handled & all
        };
        // The positions fixed since the last run.
        let fresh = self.fixed_among::<SOURCE>(ctx, vars, open);
        // Their shifted values. Two fresh positions on one value: fail.
        let mut taken = 0u64;
        for i in ones(fresh) {
            let v = shift(ctx.dom(vars[i]).bits(), offset(i));
            if taken & v != 0 {
                return Err(Conflict);
            }
            taken |= v;
        }
        open &= !fresh;
        // A fixed position's shifted value is a value (the model keeps it
        // within 0..=63): some position is fresh iff a value is taken.
        while taken != 0 {
            // The values of the positions this round fixes, and those two
            // of them share.
            let (mut next, mut clash) = (0u64, 0u64);
            for i in ones(open) {
                let x = vars[i];
                let d = ctx.dom(x).bits();
                // The taken values are some fixed position's: they go.
                let left = d & !shift(taken, -offset(i));
                if left != d {
                    ctx.restrict(x, Domain::from_bits(left))?;
                } else if !REPEATS {
                    // Untouched: not fixed when the round began (else it
                    // would not be open), and no other position's restrict
                    // narrows its variable, so still open.
                    continue;
                }
                // `d` was read just before the restrict, so the domain is
                // `left` now (not empty: the restrict would have failed).
                if Domain::from_bits(left).is_fixed() {
                    let v = shift(left, offset(i));
                    clash |= next & v;
                    next |= v;
                    open &= !(1 << i);
                }
            }
            if clash != 0 {
                return Err(Conflict);
            }
            taken = next;
        }
        *ctx.first_state_word() = if SOURCE == WINDOW {
            self.variables_handled(vars, open)
        } else {
            !open & all
        };
        Ok(Status::Fixpoint)
    }

    /// The whole run for a larger group, in offset mode `M` (see
    /// [`NO_OFFSETS`]).
    ///
    /// Rounds: the positions fixed but not yet handled (`fresh`) give their
    /// shifted values (`taken`), which go from every other open position, in
    /// position order; the positions this leaves fixed are the next round's
    /// fresh ones. The handled positions already differ from the taken
    /// values (their values were removed from the fresh ones when they were
    /// handled).
    #[inline(always)]
    fn filter<'a, const M: u8>(&self, ctx: &mut impl Narrow<'a>) -> Propagation {
        let vars = ctx.group(self.vars);
        let repeats = self.repeats;
        let all = u64::MAX >> (64 - vars.len());
        // Bit i set: position i is fixed and its value is gone from the others.
        let mut open = !*ctx.first_state_word() & all;
        let (mut fresh, mut taken, mut clash) = self.scan::<M>(ctx, vars, open);
        while fresh != 0 {
            // Two fresh positions on one value: they cannot differ.
            if clash != 0 {
                return Err(Conflict);
            }
            open &= !fresh;
            (fresh, taken, clash) = self.round::<M>(ctx, vars, open, taken, repeats)?;
        }
        *ctx.first_state_word() = !open & all;
        Ok(Status::Fixpoint)
    }

    /// The offsets mode `M` reads: empty under [`NO_OFFSETS`], else one per
    /// position (slicing to the length of `vars` lets the compiler drop one
    /// bounds check of two).
    #[inline(always)]
    fn offsets_for<const M: u8>(&self) -> &[i32] {
        if M == NO_OFFSETS {
            &[]
        } else {
            &self.offsets[..self.vars.len()]
        }
    }

    /// The positions of `open` that are fixed, their shifted values, and the
    /// values two of them share (a conflict, reported before the round that
    /// would remove them).
    #[inline(always)]
    fn scan<'a, const M: u8>(
        &self,
        ctx: &impl Narrow<'a>,
        vars: &[VarId],
        open: u64,
    ) -> (u64, u64, u64) {
        let offsets = self.offsets_for::<M>();
        let (mut fresh, mut taken, mut clash) = (0u64, 0u64, 0u64);
        if self.in_order {
            // The fixed positions are known: only their values are read.
            fresh = self.fixed_among::<IN_ORDER>(ctx, vars, open);
            for i in ones(fresh) {
                let v = up::<M>(ctx.dom(vars[i]).bits(), offsets, i);
                clash |= taken & v;
                taken |= v;
            }
            return (fresh, taken, clash);
        }
        for i in ones(open) {
            let d = ctx.dom(vars[i]).bits();
            // Domains are never empty here, so one bit or less is one bit.
            // Without a branch: whether a position is fixed is data the
            // branch predictor cannot guess.
            let fixed = u64::from(at_most_one(d));
            let v = up::<M>(d, offsets, i) & fixed.wrapping_neg();
            clash |= taken & v;
            taken |= v;
            fresh |= fixed << i;
        }
        (fresh, taken, clash)
    }

    /// One round: `taken` (shifted values) leaves the positions of
    /// `open`, in position order. Returns the positions it fixed, their
    /// shifted values and the values two of them share.
    ///
    /// A position this fixes is handled in the next round. When a variable
    /// occurs twice (`repeats`), a position also counts as fixed if its
    /// variable was fixed through another position (earlier in this round,
    /// or later in the previous one) though its own removal changed
    /// nothing; which round notices it decides the grouping of the
    /// restricts, so this keeps the one-pass order exactly. Otherwise an
    /// open position's domain was not fixed when the round began, and only
    /// its own restrict can fix it.
    #[inline(always)]
    fn round<'a, const M: u8>(
        &self,
        ctx: &mut impl Narrow<'a>,
        vars: &[VarId],
        open: u64,
        taken: u64,
        repeats: bool,
    ) -> Result<(u64, u64, u64), Conflict> {
        let offsets = self.offsets_for::<M>();
        let (mut fresh, mut next, mut clash) = (0u64, 0u64, 0u64);
        if repeats {
            for i in ones(open) {
                let x = vars[i];
                // The taken values are some fixed position's: they go.
                ctx.restrict(x, Domain::from_bits(!down::<M>(taken, offsets, i)))?;
                let left = ctx.dom(x).bits();
                if at_most_one(left) {
                    let v = up::<M>(left, offsets, i);
                    clash |= next & v;
                    next |= v;
                    fresh |= 1 << i;
                }
            }
            return Ok((fresh, next, clash));
        }
        // Every variable occurs once, so no restrict of the round touches a
        // position but its own: first find, without branching, the
        // positions that hold a taken value (most hold none), then narrow
        // only those.
        let mut hit = 0u64;
        for i in ones(open) {
            let d = ctx.dom(vars[i]).bits();
            hit |= u64::from(d & down::<M>(taken, offsets, i) != 0) << i;
        }
        for i in ones(hit) {
            let x = vars[i];
            // The taken values are some fixed position's: they go.
            ctx.restrict(x, Domain::from_bits(!down::<M>(taken, offsets, i)))?;
            let left = ctx.dom(x).bits();
            // Not empty: the restrict would have failed.
            let fixed = u64::from(at_most_one(left));
            let v = up::<M>(left, offsets, i) & fixed.wrapping_neg();
            clash |= next & v;
            next |= v;
            fresh |= fixed << i;
        }
        Ok((fresh, next, clash))
    }
}

/// Bit `k` of a round of [`AllDifferentValue::window_rounds`]: the taken
/// values `taken` go from it (which leaves it a value, as the round has
/// checked), and if that fixes it, it leaves `open`, its value joins `next`
/// and, if there already, `clash`.
#[inline(always)]
fn window_narrow<'a>(
    ctx: &mut impl Narrow<'a>,
    base: usize,
    k: usize,
    taken: u64,
    open: &mut u64,
    next: &mut u64,
    clash: &mut u64,
) {
    let d = ctx.doms()[base + k];
    let left = d & !taken;
    if left == d {
        return;
    }
    ctx.narrow_at(base + k, d, left);
    // The test the narrowing made (see `one_word_woken`), so that the two
    // are one: `left` is not empty.
    if left & left.wrapping_sub(1) == 0 {
        *clash |= *next & left;
        *next |= left;
        *open &= !(1 << k);
    }
}

/// Why [`AllDifferentValue::window_rounds`] stopped short of a fixpoint.
enum WindowStop {
    /// Two variables fixed to one value: the run fails.
    Conflict,
    /// The taken values (the field) would empty an open domain: the round
    /// goes as [`AllDifferentValue::window_emptied`] says.
    Emptying(u64),
}

/// What [`AllDifferentValue::rounds_in_place`] did to a block.
struct InPlace {
    /// The run's result (a conflict as soon as a domain would be emptied,
    /// or two fresh positions share a value).
    result: Propagation,
    /// The positions still open.
    open: u64,
    /// The positions narrowed (noted only when someone listens to
    /// narrowings that leave a variable open, else zero), ...
    narrowed: u64,
    /// ... those whose bounds moved (likewise), ...
    moved: u64,
    /// ... and those the run fixed.
    fixed: u64,
}

/// The largest group [`AllDifferentValue`] runs in one pass a round.
///
/// Both ways make the same restricts in the same order. The one-pass loop
/// branches on each position (fixed? holding a taken value?); the larger
/// groups' way spends more instructions to branch on no data, and with
/// few positions the branches are the cheaper (measured: generated 5x5 and
/// 6x6 uniqueness checks about 5-8% faster one-pass, 7x7 even, 8x8 and
/// N-queens from 8 up faster the other way).
const SMALL_GROUP: usize = 7;

/// Where [`AllDifferentValue::one_pass`] learns which positions are fixed:
/// from the shape of the group (as [`source`] says), ...
const ANY_GROUP: u8 = 0;
/// ... from one read of the fixed bits, positions in variable order (the
/// group is in order), ...
const IN_ORDER: u8 = 1;
/// ... from one read of the fixed bits of a window of 64 variables, or ...
/// (Where it is the `SOURCE` given, not one [`ANY_GROUP`] resolves to, it
/// also means the group runs as `Run::OnePassWindow`, whose state word
/// holds the variables handled, not the positions: see `one_pass`.)
const WINDOW: u8 = 2;
/// ... from each open position's domain.
const DOMAINS: u8 = 3;

/// The source of the fixed positions for a group in order or not, and in a
/// window or not.
fn source(in_order: bool, window: Option<u32>) -> u8 {
    match (in_order, window) {
        (true, _) => IN_ORDER,
        (false, Some(_)) => WINDOW,
        (false, None) => DOMAINS,
    }
}

/// Offset modes of [`AllDifferentValue`]: every offset is zero (the list is
/// empty), ...
const NO_OFFSETS: u8 = 0;
/// ... every offset is `>= 0` (then shifting up is `<<` and down is `>>`),
const NON_NEGATIVE: u8 = 1;
/// ... or some offset is negative (a shift by a signed amount).
const ANY_OFFSETS: u8 = 2;

/// Value set `bits` of position `i` moved into the shared (shifted) value
/// space, in offset mode `M`.
#[inline(always)]
fn up<const M: u8>(bits: u64, offsets: &[i32], i: usize) -> u64 {
    match M {
        NO_OFFSETS => bits,
        // The model keeps every value plus its offset within 0..=63.
        NON_NEGATIVE => bits << offsets[i],
        _ => shift(bits, offsets[i]),
    }
}

/// Shared values `bits` moved back into position `i`'s own values: value
/// `a` of the position is `a + offsets[i]` shifted, so it is in `bits` iff
/// bit `a` of the result is set (values that would fall below 0 or above 63
/// are no values of the position).
#[inline(always)]
fn down<const M: u8>(bits: u64, offsets: &[i32], i: usize) -> u64 {
    match M {
        NO_OFFSETS => bits,
        NON_NEGATIVE => bits >> offsets[i],
        _ => shift(bits, -offsets[i]),
    }
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
        self.run_as(self.run, ctx)
    }
}

impl AllDifferentValue {
    /// The run `run` (each way out of line: a run pays only for the
    /// registers its own way saves).
    #[inline(always)]
    fn run_as<'a, N: Narrow<'a>>(&self, run: Run, ctx: &mut N) -> Propagation {
        match run {
            Run::OnePassInOrder | Run::OnePassWindow if !N::TRACED => self.window_run(ctx),
            Run::OnePassInOrder => self.one_pass_of::<_, false, false, IN_ORDER>(ctx),
            Run::OnePassWindow => self.one_pass_of::<_, false, false, WINDOW>(ctx),
            Run::OnePass => self.one_pass_of::<_, false, false, ANY_GROUP>(ctx),
            Run::OnePassShifted => self.one_pass_of::<_, true, false, ANY_GROUP>(ctx),
            Run::OnePassRepeats => self.one_pass_of::<_, false, true, ANY_GROUP>(ctx),
            Run::OnePassShiftedRepeats => self.one_pass_of::<_, true, true, ANY_GROUP>(ctx),
            Run::InOrder if !N::TRACED => self.in_place::<_, NO_OFFSETS>(ctx),
            Run::InOrderNonNegative if !N::TRACED => self.in_place::<_, NON_NEGATIVE>(ctx),
            Run::InOrderShifted if !N::TRACED => self.in_place::<_, ANY_OFFSETS>(ctx),
            Run::InOrder | Run::InOrderNonNegative | Run::InOrderShifted | Run::Rounds => {
                self.in_rounds(ctx)
            }
        }
    }

    /// [`Self::one_pass`] on the group's variables.
    #[inline(always)]
    fn one_pass_of<
        'a,
        N: Narrow<'a>,
        const SHIFTED: bool,
        const REPEATS: bool,
        const SOURCE: u8,
    >(
        &self,
        ctx: &mut N,
    ) -> Propagation {
        let vars = ctx.group(self.vars);
        self.one_pass::<N, SHIFTED, REPEATS, SOURCE>(ctx, vars)
    }

    /// The one-pass run ([`Self::one_pass`]) for this group, whatever its
    /// size.
    #[cfg(test)]
    fn small<'a>(&self, ctx: &mut impl Narrow<'a>) -> Propagation {
        let source = source(self.in_order, self.window);
        self.run_as(
            Run::one_pass(!self.offsets.is_empty(), self.repeats, source, self.group),
            ctx,
        )
    }

    /// The untraced run of a small group of distinct variables within 32
    /// of each other, without offsets (`Run::OnePassWindow` and
    /// `Run::OnePassInOrder`), on its block of variables.
    ///
    /// The group is its bits among the block of variables from the lowest
    /// to the highest ([`Self::group`]), and its state word holds the
    /// variables handled, not the positions (for a group in order the
    /// same bits), so that the fixed ones come from one read and each is
    /// narrowed without a lookup. A round narrows them in variable order,
    /// not position order, which makes no difference unless a domain is
    /// emptied (and none for a group in order): so a round with two values
    /// taken or more, the only kind that can empty one (an open variable
    /// has two values or more), first checks that it empties none, and
    /// one that would goes in position order, out of line
    /// ([`Self::window_emptied`]).
    ///
    #[inline(never)]
    fn window_run<'a>(&self, ctx: &mut impl Narrow<'a>) -> Propagation {
        let group = u64::from(self.group);
        let mut open = group & !*ctx.first_state_word();
        match self.window_rounds(ctx, &mut open) {
            Ok(status) => {
                *ctx.first_state_word() = group & !open;
                Ok(status)
            }
            Err(WindowStop::Conflict) => Err(Conflict),
            Err(WindowStop::Emptying(taken)) => self.window_emptied(ctx, taken, open),
        }
    }

    /// The rounds of [`Self::window_run`] on the block `block`, from the
    /// open bits `open`, which it leaves open (on a conflict, or a round
    /// that would empty a domain, those of the round that stops).
    #[inline(always)]
    fn window_rounds<'a>(
        &self,
        ctx: &mut impl Narrow<'a>,
        open: &mut u64,
    ) -> Result<Status, WindowStop> {
        let base = self.base as usize;
        // The variables fixed since the last run, and their values. Two
        // on one value: fail.
        let fresh = ctx.fixed_range(base, 64) & *open;
        let mut taken = 0u64;
        if fresh & fresh.wrapping_sub(1) == 0 {
            // One fresh variable or none (most runs: the last decision
            // fixed one): its value, with nothing to clash with and no loop.
            if fresh != 0 {
                taken = ctx.doms()[base + fresh.trailing_zeros() as usize];
            }
        } else {
            for k in ones(fresh) {
                let v = ctx.doms()[base + k];
                if taken & v != 0 {
                    return Err(WindowStop::Conflict);
                }
                taken |= v;
            }
        }
        *open &= !fresh;
        while taken != 0 {
            if taken & (taken - 1) != 0 {
                // Two values taken or more may empty a domain (an open one
                // holds two or more, so one value cannot): then the
                // narrowings are those restricts in position order make,
                // not those of a round in variable order.
                let mut emptied = false;
                for k in ones(*open) {
                    emptied |= ctx.doms()[base + k] & !taken == 0;
                }
                if emptied {
                    return Err(WindowStop::Emptying(taken));
                }
            }
            // The values of the variables this round fixes, and those two
            // of them share.
            let (mut next, mut clash) = (0u64, 0u64);
            for k in ones(*open) {
                window_narrow(ctx, base, k, taken, open, &mut next, &mut clash);
            }
            if clash != 0 {
                return Err(WindowStop::Conflict);
            }
            taken = next;
        }
        Ok(Status::Fixpoint)
    }

    /// A round of [`Self::window_run`] that would empty a domain: the
    /// taken values `taken` go from the open bits `open` in position
    /// order, as restricts would, until the first domain they would
    /// empty, where the run fails. (Out of line, on a fresh borrow of the
    /// context: a run that fails so is rare, and the position order needs
    /// registers the common rounds do without.)
    #[cold]
    #[inline(never)]
    fn window_emptied<'a>(&self, ctx: &mut impl Narrow<'a>, taken: u64, open: u64) -> Propagation {
        let base = self.base as usize;
        let vars = ctx.group(self.vars);
        for x in vars {
            let k = x.index() - base;
            if open >> k & 1 != 0 {
                let d = ctx.doms()[x.index()];
                let left = d & !taken;
                if left == 0 {
                    return Err(Conflict);
                }
                if left != d {
                    ctx.narrow_at(x.index(), d, left);
                }
            }
        }
        unreachable!("some open domain held only taken values")
    }

    /// The positions among `among` of a group in a window whose variables
    /// have their bit set in `by_variable` (bit k: variable `base + k`,
    /// `base` the window's first): the fixed ones from the fixed bits, the
    /// open ones from the complement of a `Run::OnePassWindow` state word.
    #[inline(always)]
    fn positions_of(&self, vars: &[VarId], by_variable: u64, among: u64) -> u64 {
        let base = self.base as usize;
        let mut positions = 0u64;
        for i in ones(among) {
            positions |= (by_variable >> (vars[i].index() - base) & 1) << i;
        }
        positions
    }

    /// The state word of a group run as `Run::OnePassWindow` whose
    /// positions `open` are open: its other variables handled (the inverse
    /// of [`Self::positions_of`]).
    fn variables_handled(&self, vars: &[VarId], open: u64) -> u64 {
        let base = self.base as usize;
        let mut handled = 0u64;
        for (i, x) in vars.iter().enumerate() {
            handled |= (!open >> i & 1) << (x.index() - base);
        }
        handled
    }

    /// The whole run for a group of the variables `first..first + n` in
    /// order while no trace records: [`Self::block_rounds`] in offset mode
    /// `M`, the group's.
    #[inline(never)]
    fn in_place<'a, N: Narrow<'a>, const M: u8>(&self, ctx: &mut N) -> Propagation {
        // Run::InOrder...: the group is in order, so its window starts at
        // its first variable, `base`.
        let first = self.base as usize;
        self.block_rounds::<M>(ctx, first)
    }

    /// The rounds of [`Self::filter`] for a group of the variables
    /// `first..first + n` in order (so none repeats), narrowing their
    /// block of domains in place ([`Narrow::block`]) and waking, once at the
    /// end, each narrowed variable that someone listens to
    /// ([`Narrow::wake_block`]): the same narrowings in the same order, the
    /// same result, the same propagators queued, without a wake-up and a
    /// variable lookup a narrowing.
    #[inline(always)]
    fn block_rounds<'a, const M: u8>(
        &self,
        ctx: &mut impl Narrow<'a>,
        first: usize,
    ) -> Propagation {
        let n = self.vars.len();
        let all = u64::MAX >> (64 - n);
        // Bit i set: position i is fixed and its value is gone from the others.
        let open = !*ctx.first_state_word() & all;
        let block = ctx.block(first, n);
        let fresh = block.fixed & open;
        if fresh == 0 {
            return Ok(Status::Fixpoint);
        }
        // Whether anyone listens to a narrowing that leaves a variable of
        // the group open: if not (N-queens), the rounds track only the
        // positions they fix.
        let weak = block.wakes_open;
        let done = if weak != 0 {
            self.rounds_in_place::<M, true>(block.doms, open, fresh)
        } else {
            self.rounds_in_place::<M, false>(block.doms, open, fresh)
        };
        // The narrowings that left a variable open wake only the listeners
        // `weak` has (and without any, `fixed | fixed & weak` needs no read
        // of them).
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

    /// The rounds of [`Self::block_rounds`] on the group's block of
    /// domains `doms`, from the positions `fresh` among `open`. `WEAK`:
    /// some variable of the group has subscribers to narrowings that leave
    /// it open, so the rounds note every position they narrow and whether
    /// its bounds moved; else only those they fix.
    #[inline(always)]
    fn rounds_in_place<const M: u8, const WEAK: bool>(
        &self,
        doms: &mut [u64],
        mut open: u64,
        mut fresh: u64,
    ) -> InPlace {
        let offsets = self.offsets_for::<M>();
        // The positions narrowed, those whose bounds moved, and those the
        // run fixed.
        let (mut narrowed, mut moved, mut fixed) = (0u64, 0u64, 0u64);
        let result = loop {
            // The fresh positions' shifted values; two on one value fail.
            let (mut taken, mut clash) = (0u64, 0u64);
            for i in ones(fresh) {
                let v = up::<M>(doms[i], offsets, i);
                clash |= taken & v;
                taken |= v;
            }
            if clash != 0 {
                break Err(Conflict);
            }
            open &= !fresh;
            fresh = 0;
            // One pass over the open positions that branches on no data:
            // each loses the taken values and is written back, narrowed or
            // not. (About half the open positions hold a taken value, so a
            // branch on it is a coin toss: finding those first and then
            // narrowing only them took about as many instructions and about
            // a fifth more time.) As a restrict would, the first domain
            // that would be emptied stops the narrowing: it and every later
            // one keep their values, as `go` (all ones until then, zero
            // after) says, and the run fails below.
            let mut go = u64::MAX;
            for i in ones(open) {
                let d = doms[i];
                let left = d & !(down::<M>(taken, offsets, i) & go);
                let emptied = mask(left == 0);
                go &= !emptied;
                let left = left | d & emptied;
                doms[i] = left;
                if WEAK {
                    narrowed |= u64::from(left != d) << i;
                    moved |= u64::from(bounds_moved(d, left)) << i;
                }
                // An open position held two values or more (a fixed one
                // was fresh), so one left with one value (`left` is not
                // empty) was fixed by this round. (Not `at_most_one`: in
                // this basic block `x & (x - 1) == 0` stays three
                // instructions, against its five.)
                fresh |= u64::from(left & left.wrapping_sub(1) == 0) << i;
            }
            let emptied = go == 0;
            // Every narrowed position that is fixed now was fixed by the
            // round that narrowed it last (a fixed one is not narrowed again).
            fixed |= fresh;
            if emptied {
                break Err(Conflict);
            }
            if fresh == 0 {
                break Ok(Status::Fixpoint);
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

    /// The whole run for a larger group: [`Self::filter`] in the group's
    /// offset mode.
    #[inline(never)]
    fn in_rounds<'a>(&self, ctx: &mut impl Narrow<'a>) -> Propagation {
        if self.offsets.is_empty() {
            self.filter::<NO_OFFSETS>(ctx)
        } else if !self.negative {
            self.filter::<NON_NEGATIVE>(ctx)
        } else {
            self.filter::<ANY_OFFSETS>(ctx)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{AllDifferentValue, Run, source};
    use crate::Strength;
    use crate::check::SplitMix64;
    use crate::ids::VarId;
    use crate::propagator::Traced;
    use crate::propagators::testing::{
        Bench, group_in_order, random_domains, record_in, run_with_events_in, stored, whole,
    };

    /// `n` distinct variables of the first `m`, in a random order.
    fn distinct_vars(rng: &mut SplitMix64, n: usize, m: usize) -> Vec<VarId> {
        let mut order: Vec<u32> = (0..m as u32).collect();
        for i in (1..m).rev() {
            order.swap(i, rng.below(i + 1));
        }
        order[..n].iter().map(|&x| VarId::new(0, x)).collect()
    }

    /// Who listens to narrowings that leave a variable open (bit x:
    /// variable x has such listeners): everyone, nobody (N-queens) or some.
    fn random_listeners(rng: &mut SplitMix64) -> u64 {
        match rng.below(3) {
            0 => u64::MAX,
            1 => 0,
            _ => rng.next_u64(),
        }
    }

    /// One run of `p` on `doms` and `state`, a step of a search: the runner
    /// the engine calls, which takes the untraced context or the in-place block
    /// when nobody records, must leave the result, domains, fixed bits,
    /// queue and state that `propagate` through a recording context
    /// leaves. Returns whether it narrowed (and leaves `doms` and `state`
    /// as the run did), or `None` on a conflict.
    fn runner_step(
        p: &AllDifferentValue,
        vars: &[VarId],
        doms: &mut Vec<u64>,
        state: &mut [u64; 1],
        weak: u64,
    ) -> Option<bool> {
        use crate::propagators::AnyPropagator;
        let any = AnyPropagator::AllDifferentValue(p.clone());
        let mut untraced_state = *state;
        let untraced = run_with_events_in(vars, doms, &mut untraced_state, false, weak, &any);
        let traced = run_with_events_in(vars, doms, state, true, weak, &stored(p));
        assert_eq!(untraced, traced, "group {p:?} on {doms:?}");
        traced.0.ok()?;
        assert_eq!(untraced_state, *state, "group {p:?} on {doms:?}");
        let narrowed = traced.1 != *doms;
        *doms = traced.1;
        Some(narrowed)
    }

    #[test]
    fn in_rounds_makes_the_one_pass_restricts_in_the_same_order() {
        // Groups of 2 to 12 positions, scattered over the variables, half
        // of them over fewer variables (so some repeat), offsets of either
        // sign or none, fixed one variable at a time as a search would:
        // after each step both ways must agree on the result, every
        // narrowing and its order, and the positions handled.
        let mut rng = SplitMix64::new(5);
        let (mut repeated, mut small_distinct, mut conflicts) = (0, 0, 0);
        for _ in 0..4_000 {
            let n = 2 + rng.below(11);
            let m = n + 4;
            let vars: Vec<VarId> = if rng.below(2) == 0 {
                (0..n).map(|_| VarId::new(0, rng.below(m) as u32)).collect()
            } else {
                distinct_vars(&mut rng, n, m)
            };
            let offsets: Box<[i32]> = if rng.below(3) == 0 {
                Box::default()
            } else {
                (0..n).map(|_| rng.below(9) as i32 - 3).collect()
            };
            let p = AllDifferentValue::new(&vars, whole(&vars), offsets);
            repeated += usize::from(crate::propagator::has_repeats(&vars));
            small_distinct += usize::from(matches!(
                p.run,
                Run::OnePass | Run::OnePassWindow | Run::OnePassInOrder | Run::OnePassShifted
            ));
            let mut doms: Vec<u64> = (0..m)
                .map(|_| {
                    let mut d = 0u64;
                    while d.count_ones() < 2 {
                        d |= 1 << (8 + rng.below(12));
                    }
                    d | 1 << (8 + rng.below(12))
                })
                .collect();
            let (mut one, mut rounds) = ([0u64; 2], [0u64; 2]);
            for _ in 0..m {
                let x = rng.below(m);
                let d = doms[x];
                let mut pick = d;
                for _ in 0..rng.below(d.count_ones() as usize) {
                    pick &= pick - 1;
                }
                doms[x] = pick & pick.wrapping_neg();
                let mut by_rounds = doms.clone();
                let a = record_in(&vars, &mut doms, &mut one, |ctx| p.small(ctx));
                let b = record_in(&vars, &mut by_rounds, &mut rounds, |ctx| p.in_rounds(ctx));
                assert_eq!(a, b, "group {p:?}");
                if a.0.is_err() {
                    conflicts += 1;
                    break;
                }
                assert_eq!(doms, by_rounds, "group {p:?}");
                // A small group in a window keeps the variables handled.
                let small = Run::one_pass(
                    !p.offsets.is_empty(),
                    p.repeats,
                    source(p.in_order, p.window),
                    p.group,
                );
                let handled = if small == Run::OnePassWindow {
                    let all = u64::MAX >> (64 - n);
                    // The positions of the variables handled.
                    p.positions_of(&vars, one[0], all)
                } else {
                    one[0]
                };
                assert_eq!(handled, rounds[0], "group {p:?}");
            }
        }
        assert!(
            repeated > 300 && small_distinct > 300 && conflicts > 300,
            "the cases cover repeats ({repeated}), small groups without \
             ({small_distinct}) and conflicts ({conflicts})"
        );
    }

    #[test]
    fn a_group_in_declaration_order_prunes_as_the_scanning_way_does() {
        // The same group twice, once known to be in declaration order (its
        // fixed positions come from the bitset) and once not (it reads every
        // domain): both sizes' ways must make the same restricts in order.
        let mut rng = SplitMix64::new(9);
        for _ in 0..4_000 {
            let n = 2 + rng.below(11);
            let first = rng.below(60);
            let vars = group_in_order(first, n);
            let offsets: Box<[i32]> = if rng.below(2) == 0 {
                Box::default()
            } else {
                (0..n).map(|_| rng.below(5) as i32).collect()
            };
            let fast = AllDifferentValue::new(&vars, whole(&vars), offsets.clone());
            assert!(fast.in_order && fast.window == Some(first as u32));
            let scanning = AllDifferentValue {
                window: None,
                group: 0,
                in_order: false,
                ..fast.clone()
            };
            let doms = random_domains(&mut rng, first + n, 1, 0, 12);
            // Both ways of running suit any group size.
            let way = |small: bool, p: &AllDifferentValue, ctx: &mut Traced<'_, '_>| {
                if small {
                    p.small(ctx)
                } else {
                    p.in_rounds(ctx)
                }
            };
            for small in [true, false] {
                let (mut a_doms, mut b_doms) = (doms.clone(), doms.clone());
                let (mut a_state, mut b_state) = ([0u64; 2], [0u64; 2]);
                let a = record_in(&vars, &mut a_doms, &mut a_state, |ctx| {
                    way(small, &fast, ctx)
                });
                let b = record_in(&vars, &mut b_doms, &mut b_state, |ctx| {
                    way(small, &scanning, ctx)
                });
                assert_eq!(a, b, "group {fast:?}");
                assert_eq!(a_doms, b_doms);
                assert_eq!(a_state[0], b_state[0]);
            }
        }
    }

    #[test]
    fn narrowing_in_place_matches_restricting_one_at_a_time() {
        // Groups in declaration order, offsets of either sign or none, fixed
        // a variable at a time as a search would: the in-place way (no
        // trace) and the restrict-by-restrict way (a trace recording) must
        // agree on the result, the domains, the fixed variables, the events
        // each variable had (with subscribers to every event or to fixing
        // alone) and the positions handled.
        let mut rng = SplitMix64::new(13);
        let (mut narrowings, mut conflicts) = (0, 0);
        // Groups run in place per offset mode, and with nobody listening.
        let (mut modes, mut unheard) = ([0; 3], 0);
        for _ in 0..4_000 {
            let n = 2 + rng.below(11);
            let first = rng.below(22 - n);
            let vars = group_in_order(first, n);
            let offsets: Box<[i32]> = match rng.below(3) {
                0 => Box::default(),
                1 => (0..n).map(|_| rng.below(5) as i32).collect(),
                _ => (0..n).map(|_| rng.below(7) as i32 - 3).collect(),
            };
            let p = AllDifferentValue::new(&vars, whole(&vars), offsets);
            let mode = [Run::InOrder, Run::InOrderNonNegative, Run::InOrderShifted]
                .iter()
                .position(|&run| run == p.run);
            let mut doms = random_domains(&mut rng, first + n, 2, 8, 10);
            let mut state = [0u64; 1];
            let weak = random_listeners(&mut rng);
            if let Some(mode) = mode {
                modes[mode] += 1;
                unheard += usize::from(weak >> first & (u64::MAX >> (64 - n)) == 0);
            }
            for _ in 0..n {
                let x = first + rng.below(n);
                doms[x] &= doms[x].wrapping_neg();
                let mut untraced_state = state;
                let untraced =
                    run_with_events_in(&vars, &doms, &mut untraced_state, false, weak, &stored(&p));
                let traced = run_with_events_in(&vars, &doms, &mut state, true, weak, &stored(&p));
                assert_eq!(untraced, traced, "group {p:?} on {doms:?}");
                if traced.0.is_err() {
                    conflicts += 1;
                    break;
                }
                narrowings += usize::from(traced.1 != doms);
                assert_eq!(untraced_state, state);
                doms = traced.1;
            }
        }
        assert!(
            narrowings > 2_000 && conflicts > 500,
            "the cases cover narrowings ({narrowings}) and conflicts ({conflicts})"
        );
        assert!(
            modes.iter().all(|&m| m > 200) && unheard > 300,
            "the cases cover each offset mode in place ({modes:?}) and \
             groups nobody listens to ({unheard})"
        );
    }

    #[test]
    fn every_runner_narrows_and_wakes_as_propagate_through_a_recording_context() {
        // Groups of 2 to 12 positions of every shape (in order, in a window,
        // scattered, repeated; offsets of either sign or none), fixed a
        // variable at a time as a search would, with random listeners: the
        // runner the engine calls, which takes the untraced context or the
        // in-place block when nobody records, must leave the result,
        // domains, fixed bits, queue and positions handled that `propagate`
        // through a recording context leaves.
        let mut rng = SplitMix64::new(21);
        let mut runs = std::collections::BTreeMap::new();
        let (mut narrowings, mut conflicts) = (0, 0);
        for _ in 0..6_000 {
            let n = 2 + rng.below(11);
            let m = n + rng.below(21 - n);
            let vars: Vec<VarId> = match rng.below(3) {
                0 => group_in_order(rng.below(m - n + 1), n),
                1 => (0..n).map(|_| VarId::new(0, rng.below(m) as u32)).collect(),
                _ => distinct_vars(&mut rng, n, m),
            };
            let offsets: Box<[i32]> = match rng.below(3) {
                0 => Box::default(),
                1 => (0..n).map(|_| rng.below(5) as i32).collect(),
                _ => (0..n).map(|_| rng.below(7) as i32 - 3).collect(),
            };
            let mut p = AllDifferentValue::new(&vars, whole(&vars), offsets);
            if p.run == Run::OnePassWindow && rng.below(2) == 0 {
                // As if scattered over more than 64 variables.
                (p.window, p.group, p.run) = (None, 0, Run::OnePass);
            }
            *runs.entry(format!("{:?}", p.run)).or_insert(0) += 1;
            let mut doms = random_domains(&mut rng, m, 2, 8, 10);
            let mut state = [0u64; 1];
            let weak = random_listeners(&mut rng);
            for _ in 0..m {
                let x = rng.below(m);
                doms[x] &= doms[x].wrapping_neg();
                match runner_step(&p, &vars, &mut doms, &mut state, weak) {
                    Some(narrowed) => narrowings += usize::from(narrowed),
                    None => {
                        conflicts += 1;
                        break;
                    }
                }
            }
        }
        assert!(
            runs.len() == 10 && runs.values().all(|&k| k > 100),
            "the cases cover every way of running: {runs:?}"
        );
        assert!(
            narrowings > 5_000 && conflicts > 1_000,
            "the cases cover narrowings ({narrowings}) and conflicts ({conflicts})"
        );
    }

    #[test]
    fn a_window_group_narrows_in_variable_order_as_restricts_in_position_order() {
        // Small groups of distinct variables scattered over up to 21, in
        // random order, several of them fixed at once (so that a round
        // may take two values or more, and empty a domain): the untraced
        // run, which narrows in variable order, must leave what
        // `propagate` through a recording context leaves, restrict by
        // restrict in position order, conflicts included.
        let mut rng = SplitMix64::new(29);
        let (mut several, mut conflicts, mut narrowings) = (0, 0, 0);
        for _ in 0..6_000 {
            let n = 2 + rng.below(6);
            let m = n + rng.below(22 - n);
            let vars = distinct_vars(&mut rng, n, m);
            let p = AllDifferentValue::new(&vars, whole(&vars), Box::default());
            if p.run != Run::OnePassWindow {
                // In order after all.
                continue;
            }
            let mut doms = random_domains(&mut rng, m, 2, 8, 2 + n);
            let mut state = [0u64; 1];
            let weak = random_listeners(&mut rng);
            for _ in 0..n {
                let fix = 1 + rng.below(3);
                several += usize::from(fix > 1);
                for _ in 0..fix {
                    let x = vars[rng.below(n)].index();
                    doms[x] &= doms[x].wrapping_neg();
                }
                match runner_step(&p, &vars, &mut doms, &mut state, weak) {
                    Some(narrowed) => narrowings += usize::from(narrowed),
                    None => {
                        conflicts += 1;
                        break;
                    }
                }
            }
        }
        assert!(
            several > 5_000 && narrowings > 3_000 && conflicts > 2_000,
            "the cases cover several fixed at once ({several}), narrowings \
             ({narrowings}) and conflicts ({conflicts})"
        );
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
