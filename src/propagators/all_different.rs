//! All-different: `vars[i] + offsets[i]` pairwise distinct, at two strengths.
//!
//! Both work in the *shifted* value space `dom(vars[i]) + offsets[i]`, which
//! the model guarantees stays within `0..=63` (offsets give N-queens'
//! diagonals, as Gecode's `distinct` with offsets).
//!
//! * [`AllDifferentValue`] — value strength (Oz's `FD.distinct`): when a
//!   variable is fixed, its value goes from every other. Wakes on
//!   `Event::Fixed`. Keeps one state word, the variables already handled, so
//!   a run only looks at the newly fixed ones (they stay handled below in the
//!   tree: domains only shrink). Idempotent: it loops until no new variable
//!   is fixed.
//! * [`AllDifferentDomain`] — domain consistency by Régin's algorithm: a
//!   maximum matching of variables to values, then every value is removed
//!   that lies on no alternating path from a free value and on no
//!   alternating cycle. This subsumes Hall sets. Wakes on `Event::Changed`.
//!   Idempotent (Régin's filtering is), unless a variable occurs twice.
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
    /// One offset a variable (zero when the constraint has none).
    pub(crate) offsets: Box<[i32]>,
}

impl AllDifferentValue {
    #[inline(always)]
    fn offset(&self, i: usize) -> i32 {
        self.offsets[i]
    }
}

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
        1
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        // Bit i set: variable i is fixed and its value is gone from the others.
        let done = ctx.state()[0];
        let mut open = !done & (u64::MAX >> (64 - self.vars.len()));
        // The variables fixed since the last run.
        let mut fresh = 0u64;
        for i in ones(open) {
            if ctx.dom(self.vars[i]).is_fixed() {
                fresh |= 1 << i;
            }
        }
        while fresh != 0 {
            // Their shifted values. Two fresh variables on one value: fail.
            let mut taken = 0u64;
            for i in ones(fresh) {
                let bit = shift(ctx.dom(self.vars[i]).bits(), self.offset(i));
                if taken & bit != 0 {
                    return Err(Conflict);
                }
                taken |= bit;
            }
            open &= !fresh;
            fresh = 0;
            // Every other unfixed variable loses the taken values; the handled
            // ones already differ from them (their values were removed from
            // the fresh ones when they were handled). A variable this fixes
            // is handled in the next round.
            for i in ones(open) {
                let x = self.vars[i];
                let keep = !shift(taken, -self.offset(i));
                if ctx.restrict(x, Domain::from_bits(keep))? && ctx.dom(x).is_fixed() {
                    fresh |= 1 << i;
                }
            }
        }
        ctx.state()[0] = !open & (u64::MAX >> (64 - self.vars.len()));
        Ok(Status::Fixpoint)
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        Some(all_distinct(&self.vars, &self.offsets, value))
    }
}

/// Domain-strength all-different (Régin).
#[derive(Clone, Debug)]
pub(crate) struct AllDifferentDomain {
    pub(crate) vars: Box<[VarId]>,
    /// One offset a variable (zero when the constraint has none).
    pub(crate) offsets: Box<[i32]>,
    /// Some variable occurs twice, so the filtering may not be idempotent.
    pub(crate) repeats: bool,
}

impl AllDifferentDomain {
    #[inline(always)]
    fn offset(&self, i: usize) -> i32 {
        self.offsets[i]
    }

    /// Régin's filtering with scratch arrays for up to `N` variables.
    fn regin<const N: usize>(&self, ctx: &mut Ctx<'_>) -> Propagation {
        let mut g = Graph::<N>::new(self.vars.len());
        let mut unfixed = 0;
        for (i, &x) in self.vars.iter().enumerate() {
            let d = ctx.dom(x);
            unfixed += usize::from(!d.is_fixed());
            g.dom[i] = shift(d.bits(), self.offset(i));
        }
        if !g.match_all() {
            return Err(Conflict);
        }
        // With every variable fixed, the matching is the assignment itself:
        // it exists, so the values differ, and nothing is left to prune.
        if unfixed == 0 {
            return Ok(Status::Fixpoint);
        }
        let allowed = g.consistent_values();
        for (i, &x) in self.vars.iter().enumerate() {
            let keep = shift(allowed[i], -self.offset(i));
            ctx.restrict(x, Domain::from_bits(keep))?;
        }
        Ok(if self.repeats {
            Status::Changed
        } else {
            Status::Fixpoint
        })
    }
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
            0..=8 => self.regin::<8>(ctx),
            9..=16 => self.regin::<16>(ctx),
            17..=32 => self.regin::<32>(ctx),
            _ => self.regin::<64>(ctx),
        }
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        Some(all_distinct(&self.vars, &self.offsets, value))
    }
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
    use crate::Strength;
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
}
