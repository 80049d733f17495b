//! All-different: `vars[i] + offsets[i]` pairwise distinct, at two strengths.
//!
//! Both work in the *shifted* value space `dom(vars[i]) + offsets[i]`, which
//! the model guarantees stays within `0..=63` (offsets give N-queens'
//! diagonals, as Gecode's `distinct` with offsets).
//!
//! * [`AllDifferentValue`] — value strength (Oz's `FD.distinct`): when a
//!   variable is fixed, its value goes from every other. Wakes on
//!   `Event::Fixed`. Keeps two state words: the positions already handled,
//!   so a run only narrows by the newly fixed ones (they stay handled below
//!   in the tree: domains only shrink), and the group's shape (a repeated
//!   variable? a negative offset?), worked out on the first run.
//!   Idempotent: it loops until no new variable is fixed.
//! * [`AllDifferentDomain`] — domain consistency: fixed values first, then
//!   Hall sets among the few open variables by enumerating their subsets,
//!   or Régin's matching algorithm when more are open (see
//!   `AllDifferentDomain::filter`). Wakes on `Event::Changed`. Idempotent
//!   (domain consistency is reached in one pass), unless a variable occurs
//!   twice.
//!
//! With at most 64 variables and 64 values, every set below is one `u64`.

use super::{Conflict, Ctx, Event, Priority, Propagation, Propagator, Status, Subscriptions};
use crate::domain::Domain;
use crate::model::VarId;

/// No variable / no value, in the `u8` tables below.
const NONE: u8 = u8::MAX;

/// Value-strength all-different.
#[derive(Clone, Debug)]
pub(crate) struct AllDifferentValue {
    pub(crate) vars: Box<[VarId]>,
    /// One offset a variable, or none at all when every offset is zero.
    pub(crate) offsets: Box<[i32]>,
}

impl AllDifferentValue {
    /// The whole run, in offset mode `M` (see [`NO_OFFSETS`]).
    ///
    /// Rounds: the positions fixed but not yet handled (`fresh`) give their
    /// shifted values (`taken`), which go from every other open position, in
    /// position order; the positions this leaves fixed are the next round's
    /// fresh ones. The handled positions already differ from the taken
    /// values (their values were removed from the fresh ones when they were
    /// handled).
    #[inline(always)]
    fn filter<const M: u8>(&self, ctx: &mut Ctx<'_>, shape: u64) -> Propagation {
        let vars = &self.vars[..];
        let repeats = shape & SHAPE_REPEATS != 0;
        let all = u64::MAX >> (64 - vars.len());
        // Bit i set: position i is fixed and its value is gone from the others.
        let mut open = !ctx.state()[0] & all;
        let (mut fresh, mut taken, mut clash) = self.scan::<M>(ctx, open);
        while fresh != 0 {
            // Two fresh positions on one value: they cannot differ.
            if clash != 0 {
                return Err(Conflict);
            }
            open &= !fresh;
            (fresh, taken, clash) = self.round::<M>(ctx, open, taken, repeats)?;
        }
        ctx.state()[0] = !open & all;
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
    fn scan<const M: u8>(&self, ctx: &Ctx<'_>, open: u64) -> (u64, u64, u64) {
        let vars = &self.vars[..];
        let offsets = self.offsets_for::<M>();
        let (mut fresh, mut taken, mut clash) = (0u64, 0u64, 0u64);
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
    fn round<const M: u8>(
        &self,
        ctx: &mut Ctx<'_>,
        open: u64,
        taken: u64,
        repeats: bool,
    ) -> Result<(u64, u64, u64), Conflict> {
        let vars = &self.vars[..];
        let offsets = self.offsets_for::<M>();
        let (mut fresh, mut next, mut clash) = (0u64, 0u64, 0u64);
        if repeats {
            for i in ones(open) {
                let x = vars[i];
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

/// `AllDifferentValue`'s second state word, once set: the first run worked
/// out the shape of the group (the word is zero until then).
const SHAPE_KNOWN: u64 = 1;
/// Set with [`SHAPE_KNOWN`] when some variable occurs at two positions.
const SHAPE_REPEATS: u64 = 2;
/// Set with [`SHAPE_KNOWN`] when some offset is negative.
const SHAPE_NEGATIVE: u64 = 4;

impl Propagator for AllDifferentValue {
    fn name(&self) -> &'static str {
        "all-different"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        for &x in self.vars.iter() {
            subs.on(x, Event::Fixed);
        }
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn state_words(&self) -> usize {
        2
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        // What the group looks like, worked out on the first run.
        let mut shape = ctx.state()[1];
        if shape == 0 {
            let repeats = (1..self.vars.len()).any(|i| self.vars[..i].contains(&self.vars[i]));
            let negative = self.offsets.iter().any(|&c| c < 0);
            shape = SHAPE_KNOWN
                | if repeats { SHAPE_REPEATS } else { 0 }
                | if negative { SHAPE_NEGATIVE } else { 0 };
            ctx.state()[1] = shape;
        }
        if self.offsets.is_empty() {
            self.filter::<NO_OFFSETS>(ctx, shape)
        } else if shape & SHAPE_NEGATIVE == 0 {
            self.filter::<NON_NEGATIVE>(ctx, shape)
        } else {
            self.filter::<ANY_OFFSETS>(ctx, shape)
        }
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        Some(all_distinct(&self.vars, &self.offsets, value))
    }
}

/// Domain-strength all-different (Hall sets, Régin's matching).
#[derive(Clone, Debug)]
pub(crate) struct AllDifferentDomain {
    pub(crate) vars: Box<[VarId]>,
    /// One offset a variable, or none at all when every offset is zero.
    pub(crate) offsets: Box<[i32]>,
    /// Some variable occurs twice, so the filtering may not be idempotent.
    pub(crate) repeats: bool,
    /// Some offset is not zero (`offsets` is not empty).
    pub(crate) shifted: bool,
}

impl AllDifferentDomain {
    #[inline(always)]
    fn offset(&self, i: usize) -> i32 {
        self.offsets[i]
    }

    /// Domain-consistent filtering with scratch arrays for up to `N`
    /// positions.
    ///
    /// Three phases, each cheaper than the next, on a local copy of the
    /// (shifted) domains:
    ///
    /// 1. **Fixed values.** A fixed position's value goes from every other
    ///    position, until no new position is fixed (two fixed on one value:
    ///    a conflict). A fixed position is a one-element Hall set, so this is
    ///    part of domain consistency, and it leaves the open positions
    ///    holding none of the fixed values.
    /// 2. **Hall sets among the open positions**, for at most
    ///    [`HALL_ENUMERATION`] of them: every subset `S` is tried. Fewer
    ///    values than positions in `S` is a conflict; exactly as many (a Hall
    ///    set) takes those values from every open position outside `S`.
    ///    A value `a` of position `x` belongs to no solution iff some Hall
    ///    set without `x` can take `a` (force `x = a` and apply Hall's
    ///    theorem to what is left), so one pass over the subsets of the
    ///    current domains is exactly domain consistency.
    /// 3. **Régin's matching** for more open positions than that, on the
    ///    open positions alone (the fixed ones share no value with them).
    ///
    /// All three compute the same, unique, domain-consistent result, so the
    /// choice of phase never changes a fixpoint, a tree or a trace.
    fn filter<const N: usize>(&self, ctx: &mut Ctx<'_>) -> Propagation {
        let n = self.vars.len();
        debug_assert!(n <= N, "the caller picks a tier that fits");
        let mut dom = [0u64; N];
        let mut fixed = 0u64;
        for (i, &x) in self.vars.iter().enumerate() {
            let d = ctx.dom(x).bits();
            let d = if self.shifted {
                shift(d, self.offset(i))
            } else {
                d
            };
            dom[i] = d;
            fixed |= u64::from(d & d.wrapping_sub(1) == 0) << i;
        }
        let mut open = !fixed & (u64::MAX >> (64 - n));
        let before = dom;

        // Phase 1: fixed values leave the other positions.
        let mut fresh = fixed;
        while fresh != 0 {
            let mut taken = 0u64;
            for i in ones(fresh) {
                if taken & dom[i] != 0 {
                    return Err(Conflict);
                }
                taken |= dom[i];
            }
            fresh = 0;
            for i in ones(open) {
                let d = dom[i] & !taken;
                if d == 0 {
                    return Err(Conflict);
                }
                dom[i] = d;
                fresh |= u64::from(d & d.wrapping_sub(1) == 0) << i;
            }
            open &= !fresh;
        }

        // Phases 2 and 3: Hall sets among the open positions.
        let k = open.count_ones() as usize;
        if k > HALL_ENUMERATION {
            regin::<N>(&mut dom, open)?;
        } else if k >= 3 {
            hall_sets(&mut dom, open)?;
        } else if k == 2 {
            // Two open positions of two or more values each: the only Hall
            // set would be both, and nothing lies outside it.
        }

        for (i, &x) in self.vars.iter().enumerate() {
            if dom[i] != before[i] {
                let keep = if self.shifted {
                    shift(dom[i], -self.offset(i))
                } else {
                    dom[i]
                };
                ctx.restrict(x, Domain::from_bits(keep))?;
            }
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

/// The most open positions whose subsets phase 2 of the domain
/// all-different enumerates (`2^k` of them); more go to Régin's matching.
const HALL_ENUMERATION: usize = 6;

/// Phase 2 of the domain all-different: every subset of the (at most
/// [`HALL_ENUMERATION`]) open positions, by its union of values.
fn hall_sets<const N: usize>(dom: &mut [u64; N], open: u64) -> Result<(), Conflict> {
    let mut at = [0usize; HALL_ENUMERATION];
    let mut k = 0;
    for i in ones(open) {
        at[k] = i;
        k += 1;
    }
    // union[s]: the values of the positions in subset s (bit j = at[j]).
    let mut union = [0u64; 1 << HALL_ENUMERATION];
    // taken[j]: the values of Hall sets without position at[j].
    let mut taken = [0u64; HALL_ENUMERATION];
    let full = (1usize << k) - 1;
    for s in 1..=full {
        let lowest = s.trailing_zeros() as usize;
        let u = union[s & (s - 1)] | dom[at[lowest]];
        union[s] = u;
        let size = s.count_ones();
        if size < 2 {
            continue; // one open position has two values or more
        }
        // Clear the lowest `size - 1` values: nothing left means fewer
        // values than positions.
        let mut rest = u;
        for _ in 1..size {
            rest &= rest.wrapping_sub(1);
        }
        if rest == 0 {
            return Err(Conflict);
        }
        // One more gone and nothing left: exactly `size` values, a Hall set.
        if rest & rest.wrapping_sub(1) == 0 && s != full {
            for j in ones((full & !s) as u64) {
                taken[j] |= u;
            }
        }
    }
    for j in 0..k {
        // Not empty: a position whose values all belong to a Hall set
        // without it would make that set plus it deficient, found above.
        dom[at[j]] &= !taken[j];
    }
    Ok(())
}

impl Propagator for AllDifferentDomain {
    fn name(&self) -> &'static str {
        "all-different"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        for &x in self.vars.iter() {
            subs.on(x, Event::Changed);
        }
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        // The scratch arrays are sized by a tier of the group size, so a
        // five-variable group does not clear tables for sixty-four.
        match self.vars.len() {
            0..=8 => self.filter::<8>(ctx),
            9..=16 => self.filter::<16>(ctx),
            17..=32 => self.filter::<32>(ctx),
            _ => self.filter::<64>(ctx),
        }
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        Some(all_distinct(&self.vars, &self.offsets, value))
    }
}

/// Phase 3 of the domain all-different, Régin's filtering of the positions
/// in `open`: a maximum matching of positions to values, then every value
/// removed that lies on no alternating path from a free value and on no
/// alternating cycle.
fn regin<const N: usize>(dom: &mut [u64; N], open: u64) -> Result<(), Conflict> {
    let mut g = Graph::<N>::new(0);
    let mut at = [0u8; N];
    for i in ones(open) {
        at[g.n] = i as u8;
        g.dom[g.n] = dom[i];
        g.n += 1;
    }
    if !g.match_all() {
        return Err(Conflict);
    }
    let allowed = g.consistent_values();
    for (j, &i) in at[..g.n].iter().enumerate() {
        dom[i as usize] = allowed[j];
    }
    Ok(())
}

fn all_distinct(vars: &[VarId], offsets: &[i32], value: &dyn Fn(VarId) -> u8) -> bool {
    let shifted = |i: usize| i32::from(value(vars[i])) + offsets.get(i).copied().unwrap_or(0);
    (0..vars.len()).all(|i| (0..i).all(|j| shifted(i) != shifted(j)))
}

/// The variable-value graph of one run, on the stack, for up to `N`
/// variables (values are always `0..64`).
struct Graph<const N: usize> {
    n: usize,
    /// `dom[i]`: the values variable `i` can take (shifted).
    dom: [u64; N],
    /// `mate_of_var[i]`: the value matched to variable `i`, or `NONE`.
    mate_of_var: [u8; N],
    /// `mate_of_value[v]`: the variable matched to value `v`, or `NONE`.
    mate_of_value: [u8; 64],
}

impl<const N: usize> Graph<N> {
    fn new(n: usize) -> Graph<N> {
        debug_assert!(n <= N, "the caller picks a tier that fits");
        Graph {
            n,
            dom: [0; N],
            mate_of_var: [NONE; N],
            mate_of_value: [NONE; 64],
        }
    }

    /// Finds a matching that covers every variable; false if none exists
    /// (then some set of k variables has fewer than k values: a conflict).
    fn match_all(&mut self) -> bool {
        // Greedy first: most variables get a free value at once.
        let mut used = 0u64;
        for i in 0..self.n {
            let free = self.dom[i] & !used;
            if free != 0 {
                let v = free.trailing_zeros() as u8;
                used |= 1 << v;
                self.mate_of_var[i] = v;
                self.mate_of_value[v as usize] = i as u8;
            }
        }
        // Then an augmenting path for each variable left over (Kuhn).
        for i in 0..self.n {
            if self.mate_of_var[i] == NONE {
                let mut visited = 0u64;
                if !self.augment(i, &mut visited) {
                    return false;
                }
            }
        }
        true
    }

    /// Looks for an alternating path from variable `i` to a free value and
    /// flips it. `visited` holds the values already tried in this search.
    fn augment(&mut self, i: usize, visited: &mut u64) -> bool {
        let mut candidates = self.dom[i] & !*visited;
        while candidates != 0 {
            let v = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            *visited |= 1 << v;
            let owner = self.mate_of_value[v];
            if owner == NONE || self.augment(owner as usize, visited) {
                self.mate_of_var[i] = v as u8;
                self.mate_of_value[v] = i as u8;
                return true;
            }
        }
        false
    }

    /// For each variable, the values that belong to some maximum matching
    /// (given a matching covering every variable).
    ///
    /// Orient the graph: a matched edge points variable -> value, the others
    /// value -> variable. An unmatched edge (w, a) belongs to some maximum
    /// matching iff it lies on an alternating cycle (w and a's mate in one
    /// strongly connected component) or on an even alternating path that
    /// starts at a free value (a is free, or a's mate is reachable from a
    /// free value).
    fn consistent_values(&self) -> [u64; N] {
        let n = self.n;
        let mut all = 0u64;
        let mut matched = 0u64;
        for i in 0..n {
            all |= self.dom[i];
            matched |= 1u64 << self.mate_of_var[i];
        }
        let free = all & !matched;

        // Variables reachable from a free value: first those that can take
        // one, then those that can take the value of a reached variable.
        let mut reached = 0u64;
        let mut reached_values = free;
        if free != 0 {
            loop {
                let mut grow = 0u64;
                for i in 0..n {
                    if reached >> i & 1 == 0 && self.dom[i] & reached_values != 0 {
                        grow |= 1 << i;
                    }
                }
                if grow == 0 {
                    break;
                }
                reached |= grow;
                for i in ones(grow) {
                    reached_values |= 1u64 << self.mate_of_var[i];
                }
            }
        }

        // Components of the variable graph v -> w iff mate(v) ∈ dom(w), and
        // for each variable the values matched inside its component.
        let comp_values = self.component_values();

        let mut allowed = [0u64; N];
        for w in 0..n {
            let keep = 1u64 << self.mate_of_var[w] | reached_values | comp_values[w];
            allowed[w] = self.dom[w] & keep;
        }
        allowed
    }

    /// Tarjan's strongly connected components on the variable graph
    /// `v -> w iff w != v and mate(v) ∈ dom(w)`; returns, per variable, the
    /// values matched to the variables of its component.
    fn component_values(&self) -> [u64; N] {
        let n = self.n;
        // successors[v]: the other variables that can take v's value.
        let mut successors = [0u64; N];
        for w in 0..n {
            for a in ones(self.dom[w]) {
                let v = self.mate_of_value[a];
                if v != NONE && v as usize != w {
                    successors[v as usize] |= 1 << w;
                }
            }
        }

        let mut index = [NONE; N];
        let mut low = [0u8; N];
        let mut next_index = 0u8;
        let mut stack = [0u8; N];
        let mut depth = 0usize;
        let mut on_stack = 0u64;
        // The DFS's own call stack: a variable and the successors left to visit.
        let mut frame_var = [0u8; N];
        let mut frame_rest = [0u64; N];
        let mut result = [0u64; N];

        for root in 0..n {
            if index[root] != NONE {
                continue;
            }
            let mut top = 0usize;
            frame_var[0] = root as u8;
            frame_rest[0] = successors[root];
            index[root] = next_index;
            low[root] = next_index;
            next_index += 1;
            stack[depth] = root as u8;
            depth += 1;
            on_stack |= 1 << root;
            loop {
                let v = frame_var[top] as usize;
                let rest = frame_rest[top];
                if rest != 0 {
                    let w = rest.trailing_zeros() as usize;
                    frame_rest[top] = rest & (rest - 1);
                    if index[w] == NONE {
                        index[w] = next_index;
                        low[w] = next_index;
                        next_index += 1;
                        stack[depth] = w as u8;
                        depth += 1;
                        on_stack |= 1 << w;
                        top += 1;
                        frame_var[top] = w as u8;
                        frame_rest[top] = successors[w];
                    } else if on_stack >> w & 1 == 1 {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                // v is finished: if it is a root of a component, pop it.
                if low[v] == index[v] {
                    let mut members = 0u64;
                    let mut values = 0u64;
                    loop {
                        depth -= 1;
                        let u = stack[depth] as usize;
                        on_stack &= !(1u64 << u);
                        members |= 1 << u;
                        values |= 1u64 << self.mate_of_var[u];
                        if u == v {
                            break;
                        }
                    }
                    for u in ones(members) {
                        result[u] = values;
                    }
                }
                if top == 0 {
                    break;
                }
                top -= 1;
                let parent = frame_var[top] as usize;
                low[parent] = low[parent].min(low[v]);
            }
        }
        result
    }
}

/// `bits` moved by `c`, for `|c| <= 63` (the model checks offsets), so
/// neither shift can reach 64.
#[inline(always)]
fn shift(bits: u64, c: i32) -> u64 {
    debug_assert!((-63..=63).contains(&c));
    if c >= 0 { bits << c } else { bits >> -c }
}

/// Whether `bits` holds at most one value.
///
/// `x & (x - 1) == 0` says the same, but LLVM rewrites it to
/// `count_ones(x) < 2` and, where the comparison ends up in another basic
/// block than the count, does not rewrite it back: without a popcount
/// instruction (Rust's default x86-64 target) that is a dozen instructions.
/// Shifting out the trailing zeros leaves 0 or 1 exactly when at most one
/// bit was set (`0` shifts by 64 mod 64 = 0 and stays 0).
#[inline(always)]
fn at_most_one(bits: u64) -> bool {
    bits.wrapping_shr(bits.trailing_zeros()) <= 1
}

/// The positions of the set bits of `bits`, ascending.
#[inline(always)]
fn ones(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::{HALL_ENUMERATION, hall_sets, regin};
    use crate::Strength;
    use crate::check::SplitMix64;
    use crate::propagators::testing::Bench;

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

    #[test]
    fn offsets_compare_shifted_values() {
        // x0 + 0 != x1 + 1 with x0 = 3: x1 != 2.
        for strength in [Strength::Value, Strength::Domain] {
            let mut b = Bench::new(&[(3, 3), (1, 4)]);
            let vars = [b.var(0), b.var(1)];
            b.model
                .all_different_offsets(&vars, &[0, 1], strength)
                .expect("valid");
            b.run().expect("no conflict");
            b.assert_dom(vars[1], "{1,3,4}");
        }
    }

    #[test]
    fn hall_set_enumeration_agrees_with_regin() {
        // Random open positions (two or more values each) over 0..10: both
        // phases must fail together or leave the same domains.
        let mut rng = SplitMix64::new(7);
        let mut agreed_failures = 0;
        for _ in 0..20_000 {
            let k = 3 + rng.below(HALL_ENUMERATION - 2);
            let mut dom = [0u64; 8];
            for d in dom.iter_mut().take(k) {
                while d.count_ones() < 2 {
                    *d |= 1 << rng.below(10);
                }
            }
            let open = (1u64 << k) - 1;
            let (mut by_hall, mut by_regin) = (dom, dom);
            let hall = hall_sets(&mut by_hall, open);
            let matching = regin(&mut by_regin, open);
            assert_eq!(hall.is_ok(), matching.is_ok(), "domains {dom:?}");
            if hall.is_ok() {
                assert_eq!(by_hall, by_regin, "domains {dom:?}");
            } else {
                agreed_failures += 1;
            }
        }
        assert!(agreed_failures > 0, "the cases include conflicts");
    }
}
