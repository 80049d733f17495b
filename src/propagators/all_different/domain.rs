//! Domain-strength all-different: every value left belongs to some
//! assignment of pairwise distinct (shifted) values.
//!
//! Strength: domain consistent (Hall sets, Régin's matching).
//! Wakes on: `Event::Changed` of every variable.
//! Idempotent: one pass reaches domain consistency, unless a variable
//! occurs twice (then a narrowing through one position may allow more at
//! another, and a run reports `Status::Changed`).
//! State: one word, the positions whose fixed value is gone from all the
//! others, so a run only removes the values of positions fixed since; and
//! for a group of more than eight, the matching of the last run, a byte a
//! position (see [`matching`](super::matching)), so a run repairs it
//! rather than matching from scratch.

use super::matching::{consistent, mate_words, permutation};
use super::{at_most_one, shift};
use crate::domain::Domain;
use crate::domain::ones;
use crate::ids::Group;
use crate::ids::VarId;
use crate::propagator::{
    Conflict, Event, Narrow, Priority, Propagation, Status, Subscriptions, has_repeats,
    in_order_from,
};
use crate::propagators::BuiltIn;

/// Domain-strength all-different (Hall sets, Régin's matching).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AllDifferentDomain {
    /// The variables' place among the engine's group variables, read
    /// through the context ([`Narrow::group`]).
    pub(crate) vars: Group,
    /// The place of its offsets, one a variable, among the engine's
    /// all-different offsets, read through the context
    /// ([`Narrow::offsets`]); empty when every offset is zero.
    pub(crate) offsets: Group,
    /// Some variable occurs twice, so the filtering may not be idempotent.
    pub(crate) repeats: bool,
    /// For a group in order (see [`AllDifferentDomain::in_order`], which
    /// is `all != 0`), one bit a position; zero otherwise. Its runs read
    /// this and [`first`](Self::first) rather than derive them from
    /// `vars` (its length, then a shift; a test that it is not empty, then
    /// two loads).
    pub(crate) all: u8,
    /// For a group in order, its first variable's index; zero otherwise.
    pub(crate) first: u32,
}

impl AllDifferentDomain {
    /// The propagator for `vars`, placed at `group` among the engine's
    /// group variables, with its offsets at `offsets` among the engine's
    /// (empty when all are zero).
    #[inline(always)]
    pub(crate) fn new(vars: &[VarId], group: Group, offsets: Group) -> AllDifferentDomain {
        let shifted = offsets.len() != 0;
        // Read as one block: eight variables or fewer, in order (so none
        // twice).
        let n = vars.len();
        let in_order = if !shifted && n <= 8 {
            in_order_from(vars)
        } else {
            None
        };
        // (`in_order_from` finds no first variable in an empty group.)
        let (first, all) = match in_order {
            Some(first) => (first as u32, u8::MAX >> (8 - n)),
            None => (0, 0),
        };
        AllDifferentDomain {
            repeats: all == 0 && has_repeats(vars),
            first,
            all,
            vars: group,
            offsets,
        }
    }

    /// Some offset is not zero (`offsets` is not empty).
    #[inline(always)]
    pub(crate) fn shifted(&self) -> bool {
        self.offsets.len() != 0
    }

    /// At most eight variables, `first..first + n` in order, unshifted:
    /// a run reads their domains as one slice and the fixed ones from the
    /// engine's fixed-variable bitset, and an untraced run narrows them in
    /// that slice (see [`AllDifferentDomain::filter_on_block`]).
    #[inline(always)]
    pub(crate) fn in_order(&self) -> bool {
        self.all != 0
    }

    /// Domain-consistent filtering with scratch arrays for up to `N`
    /// positions, on a local copy of the (shifted) domains:
    ///
    /// 1. **Fixed values.** A fixed position's value goes from every other
    ///    position, until no new position is fixed (two fixed on one value:
    ///    a conflict). A fixed position is a one-element Hall set, so this is
    ///    part of domain consistency, and it leaves the open positions
    ///    holding none of the fixed values. It is all a unit needs once at
    ///    most two positions are open: two open positions of two values or
    ///    more each have no Hall set but both, and nothing lies outside it.
    ///    The positions handled so (the first state word) stay handled below
    ///    in the tree, so a later run neither reads their domains nor
    ///    removes their values again.
    /// 2. **Counting, then Régin's matching** on the open positions, once
    ///    three or more are open ([`settle`]): when up to five hold as many
    ///    values as there are of them, counting each value's holders
    ///    ([`permutation`]) settles most runs; otherwise the matching of
    ///    the last run, kept in the state words, is repaired and the values
    ///    off every alternating path and cycle go ([`consistent`]).
    ///
    /// Domain consistency is unique, so how it is computed never changes a
    /// fixpoint, a tree or a trace: the restricts come last, one for each
    /// narrowed position, in position order.
    #[inline(always)]
    fn filter<'a, const N: usize>(&self, ctx: &mut impl Narrow<'a>) -> Propagation {
        let vars = ctx.group(self.vars);
        let n = vars.len();
        debug_assert!(n <= N, "the caller picks a tier that fits");
        let mut dom = [0u64; N];
        let all = u64::MAX >> (64 - n);
        // The positions handled by an earlier run (here or above in the
        // tree): fixed, their values gone from the others, and so below
        // (domains only shrink). No step reads their domains again.
        let handled = *ctx.first_state_word();
        let mut fixed = handled;
        if N == 8 && self.in_order() {
            // Variables `first..first + n`, unshifted, none twice: the
            // domains are one slice, and the fixed ones are read from the
            // engine's fixed-variable bitset. (A traced run: the untraced
            // ones take `filter_on_block`.)
            let first = self.first as usize;
            for (d, &bits) in dom.iter_mut().zip(&ctx.doms()[first..first + n]) {
                *d = bits;
            }
            fixed = ctx.fixed_range(first, n);
        } else if self.shifted() {
            // Two loops, so the common unshifted one tests nothing per
            // position but the variable's index.
            let offsets = ctx.offsets(self.offsets);
            for i in ones(all & !handled) {
                let bits = shift(ctx.dom(vars[i]).bits(), offsets[i]);
                dom[i & (N - 1)] = bits;
                fixed |= u64::from(at_most_one(bits)) << i;
            }
        } else {
            for i in ones(all & !handled) {
                let bits = ctx.dom(vars[i]).bits();
                dom[i & (N - 1)] = bits;
                // The plain test: in this block LLVM keeps it a blsr.
                fixed |= u64::from(bits & bits.wrapping_sub(1) == 0) << i;
            }
        }
        let mut open = !fixed & all;

        // Phase 1: the values of the positions fixed since leave the
        // others.
        let mut narrowed = remove_fixed_values(&mut dom, &mut open, fixed & !handled)?;
        // Every fixed position's value is now gone from the others, and
        // stays gone below (domains only shrink). Should the matching fail,
        // the state is thrown away with the domains.
        *ctx.first_state_word() = !open & all;

        // Phase 2, for three open positions or more (two cleared, some left).
        let two_cleared = open & open.wrapping_sub(1);
        if two_cleared & two_cleared.wrapping_sub(1) != 0 {
            settle(&mut dom, open, &mut narrowed, &mut ctx.state()[1..])?;
        }

        if narrowed != 0 {
            self.restrict_all(ctx, vars, &dom, narrowed)?;
        }
        // A repeated variable narrowed through one position may allow more
        // pruning at its other positions.
        Ok(if self.repeats {
            Status::Changed
        } else {
            Status::Fixpoint
        })
    }
}

impl AllDifferentDomain {
    /// [`Self::filter`] for a group in order (eight variables or fewer,
    /// `first..first + n`, unshifted) in an untraced run, on its block of
    /// domains.
    ///
    /// The domains are copied from the block as one array of eight
    /// (without a call to `memcpy` or zeroing first), the positions past
    /// the group among them, or zeros at the end of the variables: no
    /// step below reads them (`open` and `fixed` lie within the group).
    /// Each narrowed position is then narrowed in the block, in position
    /// order, from its domain there (the one the run started from).
    #[inline(always)]
    fn filter_on_block<'a>(&self, ctx: &mut impl Narrow<'a>) -> Propagation {
        let all = u64::from(self.all);
        let first = self.first as usize;
        let handled = *ctx.first_state_word();
        let mut dom = match ctx.doms()[first..].first_chunk::<8>() {
            Some(&eight) => eight,
            None => padded(&ctx.doms()[first..]),
        };
        let fixed = ctx.fixed_range(first, 64) & all;
        let mut open = !fixed & all;
        // Phase 1 and 2 as in `filter`, the state written between them (on
        // a conflict it is thrown away with the domains).
        let mut narrowed = remove_fixed_values(&mut dom, &mut open, fixed & !handled)?;
        *ctx.first_state_word() = !open & all;
        let two_cleared = open & open.wrapping_sub(1);
        if two_cleared & two_cleared.wrapping_sub(1) != 0 {
            settle(&mut dom, open, &mut narrowed, &mut [])?;
        }

        // Each narrowed domain is a non-empty strict subset of the block's
        // (values only went, and a position left empty failed above), as
        // `narrow_at` asks: no lookup of the variable and no conflict test,
        // and the block's domain is the old one to compare.
        for k in ones(narrowed) {
            let old = ctx.doms()[first + k];
            ctx.narrow_at(first + k, old, dom[k & 7]);
        }
        Ok(Status::Fixpoint)
    }

    /// [`Self::filter`] in the tier that fits the group: the scratch
    /// arrays are sized by a tier of the group size, so a five-variable
    /// group does not clear tables for sixty-four.
    #[inline(never)]
    fn filter_tier<'a>(&self, ctx: &mut impl Narrow<'a>) -> Propagation {
        match self.vars.len() {
            0..=8 => self.filter::<8>(ctx),
            9..=16 => self.filter::<16>(ctx),
            17..=32 => self.filter::<32>(ctx),
            _ => self.filter::<64>(ctx),
        }
    }

    /// Narrows each position of `narrowed` (of the variables `vars`, the
    /// group's) to its (shifted back) domain in `dom`, in position order.
    #[inline(always)]
    fn restrict_all<'a>(
        &self,
        ctx: &mut impl Narrow<'a>,
        vars: &[VarId],
        dom: &[u64],
        narrowed: u64,
    ) -> Result<(), Conflict> {
        let offsets = ctx.offsets(self.offsets);
        for i in ones(narrowed) {
            let keep = if self.shifted() {
                shift(dom[i], -offsets[i])
            } else {
                dom[i]
            };
            ctx.restrict(vars[i], Domain::from_bits(keep))?;
        }
        Ok(())
    }
}

/// The domains `doms` (fewer than eight: a group at the end of the
/// variables) followed by zeros, out of line. Word by word, as `get`
/// (a copy of `doms.len()` words would call `memcpy`).
#[inline(never)]
fn padded(doms: &[u64]) -> [u64; 8] {
    std::array::from_fn(|k| doms.get(k).copied().unwrap_or(0))
}

/// Phase 1 of [`AllDifferentDomain::filter`]: the values of the `fresh`
/// fixed positions leave the `open` ones, and those left with one value
/// are fixed in turn, until none is; takes the fixed ones out of `open`
/// and returns the positions narrowed.
///
/// # Errors
///
/// [`Conflict`] when two fixed positions share a value or an open one is
/// left with none.
#[inline(always)]
fn remove_fixed_values<const N: usize>(
    dom: &mut [u64; N],
    open: &mut u64,
    mut fresh: u64,
) -> Result<u64, Conflict> {
    // Positions are below `N`, a power of two: `& (N - 1)` spares the
    // bounds checks.
    const { assert!(N.is_power_of_two(), "a tier's size is a power of two") };
    let at = |i: usize| i & (N - 1);
    let mut narrowed = 0u64;
    while fresh != 0 {
        // One fresh position (most rounds of a search: its last decision
        // fixed it, or the last round did): its value, with nothing to
        // clash with and no loop.
        let taken = if fresh & fresh.wrapping_sub(1) == 0 {
            dom[at(fresh.trailing_zeros() as usize)]
        } else {
            let (mut taken, mut clash) = (0u64, 0u64);
            for i in ones(fresh) {
                clash |= taken & dom[at(i)];
                taken |= dom[at(i)];
            }
            // Two fixed positions on one value.
            if clash != 0 {
                return Err(Conflict);
            }
            taken
        };
        let mut empty = false;
        fresh = 0;
        // Position by position with its bit at hand, so that a flag is set
        // by a conditional move of the bit, not by shifting a comparison
        // by the index (three instructions fewer a position).
        let mut rest = *open;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            let i = rest.trailing_zeros() as usize;
            rest ^= bit;
            let d = dom[at(i)];
            let left = d & !taken;
            dom[at(i)] = left;
            if left != d {
                narrowed |= bit;
            }
            empty |= left == 0;
            // At most one value left (none fails below). The plain test,
            // not `at_most_one`: it stays in this block as a conditional
            // move, three instructions against seven.
            if left & left.wrapping_sub(1) == 0 {
                fresh |= bit;
            }
        }
        // An open position held nothing but fixed values.
        if empty {
            return Err(Conflict);
        }
        *open &= !fresh;
    }
    Ok(narrowed)
}

/// Phase 2 of [`AllDifferentDomain::filter`], `open` three positions or
/// more: counting holders ([`permutation`]), then if need be Régin's
/// matching ([`consistent`]) from the one `mates` keeps (none for a group
/// of eight or fewer: counting settles most of their runs). Adds the
/// positions it narrows to `narrowed`. Counting first pays on the zebra
/// benches and, for groups of nine and more, on the sudoku bench's top95
/// rows (a unit's last cells).
///
/// # Errors
///
/// [`Conflict`] when no assignment of distinct values is left.
#[inline(always)]
fn settle<const N: usize>(
    dom: &mut [u64; N],
    mut open: u64,
    narrowed: &mut u64,
    mates: &mut [u64],
) -> Result<(), Conflict> {
    // Six open positions or more (five cleared, some left) are more than
    // the counts settle; groups of eight or fewer, whose runs most often
    // have fewer, leave that to the counting. (`permutation` adds the
    // positions it narrows to `narrowed` itself, and says whether the
    // counts settled the run.)
    let five_cleared = (0..5).fold(open, |o, _| o & o.wrapping_sub(1));
    if N > 8 && five_cleared != 0 || !permutation(dom, &mut open, narrowed)? {
        *narrowed |= consistent(dom, open, mates)?;
    }
    Ok(())
}

impl BuiltIn for AllDifferentDomain {
    #[inline(always)]
    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on_group(self.vars, Event::Changed);
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    /// One word: bit `i` set when position `i` is fixed and its value is
    /// gone from every other position; then, for a group of more than
    /// eight, the value matched to each position by the last run, a byte a
    /// position (see [`matching`](super::matching)).
    fn state_words(&self) -> usize {
        1 + mate_words(self.vars.len())
    }

    #[inline(always)]
    fn run<'a, N: Narrow<'a>>(&self, ctx: &mut N) -> Propagation {
        // A group in order (eight or fewer) on its block, when untraced (a
        // traced run reports its narrowings through `restrict`): a fast path
        // that earns its place on `zebra/classic` and the 5x5 uniqueness
        // checks (`check-5x5-domain`).
        if self.in_order() && !N::TRACED {
            return self.filter_on_block(ctx);
        }
        self.filter_tier(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::AllDifferentDomain;
    use crate::Strength;
    use crate::check::SplitMix64;
    use crate::ids::{Group, VarId};
    use crate::propagator::has_repeats;
    use crate::propagators::AnyPropagator;
    use crate::propagators::BuiltIn;
    use crate::propagators::testing::{
        Bench, group_in_order, lists, record_in, run_with_events_in, stored, whole,
    };

    /// A group of 3 to 12 positions (the tier of eight and the next), or
    /// with `wide` one time in three up to 50 (the tiers of 32 and 64), over
    /// fewer variables, `0..m` (so some repeat), with offsets of either
    /// sign or none; and `m`, and the group's variables and offsets, lent
    /// to its runs.
    fn random_group(
        rng: &mut SplitMix64,
        wide: bool,
    ) -> (AllDifferentDomain, usize, Vec<VarId>, Vec<i32>) {
        let n = if wide && rng.below(3) == 0 {
            13 + rng.below(38)
        } else {
            3 + rng.below(10)
        };
        let m = 3 + rng.below(n);
        let vars: Vec<VarId> = (0..n).map(|_| VarId::new(0, rng.below(m) as u32)).collect();
        let mut offsets: Vec<i32> = if rng.below(2) == 0 {
            Vec::new()
        } else {
            (0..n).map(|_| rng.below(7) as i32 - 3).collect()
        };
        let shifted = offsets.iter().any(|&c| c != 0);
        if !shifted {
            offsets.clear();
        }
        let p = AllDifferentDomain {
            repeats: has_repeats(&vars),
            offsets: whole(&offsets),
            vars: whole(&vars),
            first: 0,
            all: 0,
        };
        (p, m, vars, offsets)
    }

    /// `m` domains of three values or more among `8..n + 10` (so at most
    /// `8..60`, and shifted by up to 3 either way within `0..64`).
    fn three_values_each(rng: &mut SplitMix64, m: usize, n: usize) -> Vec<u64> {
        (0..m)
            .map(|_| {
                let mut d = 0u64;
                while d.count_ones() < 3 {
                    d |= 1 << (8 + rng.below(n + 2));
                }
                d
            })
            .collect()
    }

    /// One step of a search on domain `d`: fixes it to one of its values,
    /// or takes that value away if it keeps something.
    fn narrow_a_step(rng: &mut SplitMix64, d: &mut u64) {
        let mut pick = *d;
        for _ in 0..rng.below(d.count_ones() as usize) {
            pick &= pick - 1;
        }
        let v = pick & pick.wrapping_neg();
        *d = if rng.below(2) == 0 || *d == v {
            v
        } else {
            *d & !v
        };
    }

    #[test]
    fn a_run_keeping_its_state_narrows_as_a_run_from_scratch() {
        // Groups of 3 to 12 positions (the tier of eight and the next) and
        // up to 50 (the tiers of 32 and 64) over fewer variables (so some
        // repeat), offsets of either sign or none, narrowed a step at a time
        // as a search would (a value removed or a variable fixed), a run
        // after each: the run that keeps its state words (the handled
        // positions, the matching) and one that starts from zero must agree
        // on the result, every narrowing and its order.
        let mut rng = SplitMix64::new(7);
        let (mut handled, mut kept_matching, mut conflicts) = (0, 0, 0);
        for _ in 0..3_000 {
            let (p, m, vars, offsets) = random_group(&mut rng, true);
            let n = p.vars.len();
            let mut doms = three_values_each(&mut rng, m, n);
            let words = p.state_words();
            let mut state = vec![0u64; words];
            for _ in 0..2 * m {
                let x = rng.below(m);
                narrow_a_step(&mut rng, &mut doms[x]);
                let mut from_scratch = doms.clone();
                let kept = record_in(lists(&vars, &offsets), &mut doms, &mut state, |ctx| {
                    p.run(ctx)
                });
                let mut zeros = vec![0u64; words];
                let fresh = record_in(
                    lists(&vars, &offsets),
                    &mut from_scratch,
                    &mut zeros,
                    |ctx| p.run(ctx),
                );
                assert_eq!(kept, fresh, "group {p:?}");
                if kept.0.is_err() {
                    conflicts += 1;
                    break;
                }
                assert_eq!(doms, from_scratch, "group {p:?}");
                handled += usize::from(state[0] != 0);
                kept_matching += usize::from(state[1..].iter().any(|&w| w != 0));
            }
        }
        assert!(
            handled > 1_000 && kept_matching > 1_000 && conflicts > 300,
            "the runs start from handled positions and kept matchings, and some fail"
        );
    }

    #[test]
    fn a_group_in_order_narrows_as_one_read_position_by_position() {
        // Groups of 3 to 8 variables `first..first + n` in order, among
        // others, narrowed a step at a time (a value removed or a variable
        // fixed), a run after each: the run keeping its state word (which
        // reads the domains as one slice and the fixed positions from the
        // fixed-variable bitset), one from scratch, and one reading domain
        // by domain must agree on the result, every narrowing and its
        // order.
        let mut rng = SplitMix64::new(41);
        let (mut steps, mut conflicts) = (0, 0);
        for _ in 0..3_000 {
            let n = 3 + rng.below(6);
            let first = rng.below(4);
            let m = first + n + rng.below(3);
            let vars = group_in_order(first, n);
            let p = AllDifferentDomain::new(&vars, whole(&vars), Group::default());
            assert!(p.in_order(), "at most eight variables, in order, unshifted");
            // The same group, read domain by domain.
            let by_domain = AllDifferentDomain { all: 0, ..p };
            let mut doms = three_values_each(&mut rng, m, n);
            let mut state = [0u64];
            for _ in 0..2 * n {
                let x = first + rng.below(n);
                narrow_a_step(&mut rng, &mut doms[x]);
                let (mut from_scratch, mut by_position) = (doms.clone(), doms.clone());
                let kept = record_in(lists(&vars, &[]), &mut doms, &mut state, |ctx| p.run(ctx));
                let fresh = record_in(lists(&vars, &[]), &mut from_scratch, &mut [0], |ctx| {
                    p.run(ctx)
                });
                let general = record_in(lists(&vars, &[]), &mut by_position, &mut [0], |ctx| {
                    by_domain.run(ctx)
                });
                assert_eq!(kept, general, "group {p:?}");
                assert_eq!(fresh, general, "group {p:?}");
                if kept.0.is_err() {
                    conflicts += 1;
                    break;
                }
                assert_eq!(doms, by_position, "group {p:?}");
                assert_eq!(doms, from_scratch, "group {p:?}");
                steps += 1;
            }
        }
        assert!(
            steps > 20_000 && conflicts > 5,
            "the runs read the group in order, and some fail"
        );
    }

    #[test]
    fn untraced_and_traced_runs_narrow_and_wake_alike() {
        // Groups of 3 to 12 positions over fewer variables (so some repeat),
        // offsets or none, random domains and listeners: a run nobody
        // records (untraced), through the propagator or through the
        // engine's runner, must leave the result, domains, fixed bits,
        // queue and state word a recorded run leaves.
        let mut rng = SplitMix64::new(29);
        let (mut narrowed, mut conflicts) = (0, 0);
        for _ in 0..5_000 {
            let (p, m, vars, offsets) = random_group(&mut rng, false);
            let n = p.vars.len();
            let doms: Vec<u64> = (0..m)
                .map(|_| match rng.below(4) {
                    0 => 1 << (8 + rng.below(n + 2)),
                    _ => (0..3).fold(0, |d, _| d | 1 << (8 + rng.below(n + 2))),
                })
                .collect();
            let weak = rng.next_u64();
            let words = p.state_words();
            let (mut untraced_state, mut traced_state) = (vec![0u64; words], vec![0u64; words]);
            let run_with = |state: &mut [u64], traced: bool, any: &AnyPropagator| {
                run_with_events_in(lists(&vars, &offsets), &doms, state, traced, weak, any)
            };
            let untraced = run_with(&mut untraced_state, false, &stored(&p));
            let traced = run_with(&mut traced_state, true, &stored(&p));
            assert_eq!(untraced, traced, "group {p:?} on {doms:?}");
            assert_eq!(untraced_state, traced_state, "group {p:?} on {doms:?}");
            // The engine's runner, which runs untraced with a one-word queue.
            let mut runner_state = vec![0u64; words];
            let any = AnyPropagator::AllDifferentDomain(p);
            let run = run_with(&mut runner_state, false, &any);
            assert_eq!(run, traced, "group {p:?} on {doms:?}");
            assert_eq!(runner_state, traced_state, "group {p:?} on {doms:?}");
            narrowed += usize::from(untraced.0.is_ok() && untraced.1 != doms);
            conflicts += usize::from(untraced.0.is_err());
        }
        assert!(
            narrowed > 500 && conflicts > 500,
            "the runs narrow, and some fail"
        );
    }

    #[test]
    fn a_group_in_order_behind_untraced_and_traced_runs_narrow_and_wake_alike() {
        // Groups of 3 to 8 variables `first..first + n` in order, among
        // others, with eight domains or fewer from `first` on (the block
        // read as one array, or padded with zeros), random domains and
        // listeners; a run from no state, then, after a step of a search, a
        // run keeping its state word: the untraced run (on the block, through
        // the propagator or through the engine's runner) must leave the
        // result, domains, fixed bits, queue and (unless it failed) state
        // word the recorded run (position by position) leaves.
        let mut rng = SplitMix64::new(53);
        let (mut narrowed, mut conflicts, mut short) = (0, 0, 0);
        for _ in 0..5_000 {
            let n = 3 + rng.below(6);
            let first = rng.below(6);
            let m = first + n + rng.below(4);
            short += usize::from(m - first < 8);
            let vars = group_in_order(first, n);
            let p = AllDifferentDomain::new(&vars, whole(&vars), Group::default());
            assert!(p.in_order(), "at most eight variables, in order, unshifted");
            let mut doms: Vec<u64> = (0..m)
                .map(|_| match rng.below(3) {
                    0 => 1 << (1 + rng.below(n + 1)),
                    _ => (0..3).fold(0, |d, _| d | 1 << (1 + rng.below(n + 1))),
                })
                .collect();
            let weak = rng.next_u64();
            let mut state = [0u64];
            let any = AnyPropagator::AllDifferentDomain(p);
            let run_with = |doms: &[u64], state: &mut [u64], traced: bool, any: &AnyPropagator| {
                run_with_events_in(lists(&vars, &[]), doms, state, traced, weak, any)
            };
            for _ in 0..2 {
                let (mut untraced_state, mut traced_state) = (state, state);
                let untraced = run_with(&doms, &mut untraced_state, false, &stored(&p));
                let traced = run_with(&doms, &mut traced_state, true, &stored(&p));
                assert_eq!(untraced, traced, "group {p:?} on {doms:?}");
                // The engine's runner, which goes to the block untested.
                let mut runner_state = state;
                let run = run_with(&doms, &mut runner_state, false, &any);
                assert_eq!(run, traced, "group {p:?} on {doms:?}");
                // After a conflict the state is thrown away with the
                // domains (the block run writes it last, the other
                // after phase 1).
                if untraced.0.is_err() {
                    conflicts += 1;
                    break;
                }
                assert_eq!(untraced_state, traced_state, "group {p:?} on {doms:?}");
                assert_eq!(runner_state, traced_state, "group {p:?} on {doms:?}");
                narrowed += usize::from(untraced.1 != doms);
                (doms, state) = (untraced.1, untraced_state);
                let x = first + rng.below(n);
                narrow_a_step(&mut rng, &mut doms[x]);
            }
        }
        assert!(
            narrowed > 1_000 && conflicts > 500 && short > 1_000,
            "the runs narrow, some fail, and some read fewer than eight domains"
        );
    }

    #[test]
    fn domain_strength_fails_on_a_pigeonhole() {
        let mut b = Bench::new(&[(1, 2), (1, 2), (1, 2)]);
        let vars = [b.var(0), b.var(1), b.var(2)];
        b.model
            .all_different(&vars, Strength::Domain)
            .expect("valid");
        assert!(b.run().is_err());
    }

    #[test]
    fn domain_strength_keeps_values_on_alternating_cycles() {
        // x0, x1 in {1,2} form a Hall set; x2, x3 in {3,4} another. Every
        // remaining value is part of some solution.
        let mut b = Bench::new(&[(1, 2), (1, 2), (1, 4), (3, 4)]);
        let vars = [b.var(0), b.var(1), b.var(2), b.var(3)];
        b.model
            .all_different(&vars, Strength::Domain)
            .expect("valid");
        b.run().expect("no conflict");
        b.assert_dom(vars[0], "{1,2}");
        b.assert_dom(vars[2], "{3,4}");
        b.assert_dom(vars[3], "{3,4}");
    }
}
