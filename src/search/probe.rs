//! Singleton probing at the root, for
//! [`SearchOptions::probe`](super::SearchOptions::probe).
//!
//! Each value `v` of each open variable `x` is tried on a copy of the
//! root's fixpoint: if propagating `x = v` fails, no solution has it, and
//! `x` loses `v` at the root itself, which is propagated again. Passes over
//! every variable, in declaration order and values in increasing order,
//! repeat until one removes nothing: the root is then singleton
//! consistent (seed 000's singleton probing). A probe is not a node of the
//! tree and is not counted as one; its propagator runs are counted, and a
//! probe that fails raises the failing constraint's conflict weight, as a
//! failed leaf does, so that dom/wdeg starts from where the probes failed.
//!
//! It costs one propagation a value of every open variable, a pass; on
//! hard instances (large sudoku boards) that is a fraction of a second
//! and removes values that the search would refute again and again.

use super::restarts::Failure;
use super::{Opener, VarOrder};
use crate::domain::{Domain, ones};
use crate::observer::Observer;

impl Opener<'_> {
    /// Makes `state`, a root's fixpoint, singleton consistent (see the
    /// module docs), using `scratch` for the probes.
    ///
    /// # Errors
    ///
    /// The root has no solution: the constraint that refuted the last
    /// value of a variable.
    pub(super) fn probe<O: Observer>(
        &mut self,
        state: &mut [u64],
        scratch: &mut Vec<u64>,
        observer: &mut O,
    ) -> Result<(), Failure> {
        scratch.clear();
        scratch.extend_from_slice(state);
        let vars = self.run.domain_bits(state).len();
        loop {
            let mut narrowed = false;
            for i in 0..vars {
                let d = self.run.domain_bits(state)[i];
                if d & d.wrapping_sub(1) == 0 {
                    continue;
                }
                let x = self.run.var_at(i);
                for v in ones(d) {
                    // A value an earlier probe's narrowing removed.
                    if self.run.domain_bits(state)[i] >> v & 1 == 0 {
                        continue;
                    }
                    let only = Domain::singleton(v as u8);
                    scratch.copy_from_slice(state);
                    let Err(by) = self.run.propagate_after(scratch, Some((x, only)), &mut ())
                    else {
                        continue;
                    };
                    if self.options.var_order == VarOrder::DomWdeg {
                        self.weights.failed(by);
                    }
                    // `x = v` has no solution: `x != v` at the root. With
                    // `v` its last value, the root has none.
                    if !self.run.restrict(state, x, !only) {
                        return Err(Failure::Constraint(by));
                    }
                    self.run
                        .propagate_after(state, None, observer)
                        .map_err(Failure::Constraint)?;
                    narrowed = true;
                }
            }
            if !narrowed {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Engine;
    use crate::search::parallel::tests::queens;
    use crate::{Domain, Model, SearchOptions, Solver, VarId};

    /// The singleton-consistent closure of `m`'s root on `vars`, worked
    /// out apart: a value goes when a fresh engine, narrowed to the
    /// domains so far and the value, fails to propagate; passes repeat
    /// until none removes a value.
    fn closure(m: &Model, vars: &[VarId]) -> Vec<Domain> {
        let mut engine = Engine::new(m);
        engine.propagate().expect("a consistent root");
        let mut doms: Vec<Domain> = vars.iter().map(|&x| engine.dom(x)).collect();
        loop {
            let mut removed = false;
            for i in 0..vars.len() {
                for v in 0..64u8 {
                    if !doms[i].contains(u32::from(v)) || doms[i].size() < 2 {
                        continue;
                    }
                    let mut probe = Engine::new(m);
                    for (&y, &d) in vars.iter().zip(&doms) {
                        probe.restrict(y, d);
                    }
                    probe.restrict(vars[i], Domain::singleton(v));
                    if probe.propagate().is_err() {
                        doms[i] &= !Domain::singleton(v);
                        removed = true;
                    }
                }
            }
            if !removed {
                return doms;
            }
        }
    }

    #[test]
    fn a_probed_search_is_the_search_from_the_singleton_consistent_root() {
        // N-queens with value-strength all-different (which alone prunes
        // little at the root), under first-fail: the search with probing
        // visits the tree that the search without it visits on the model
        // whose domains are the closure worked out apart (same nodes,
        // same solutions in the same order), and finds every solution
        // (OEIS A000170).
        for (n, count) in [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)] {
            let (m, rows) = queens(n);
            let doms = closure(&m, &rows);
            let mut narrowed = m.clone();
            for (&x, d) in rows.iter().zip(&doms) {
                let values: Vec<i64> = d.iter().map(i64::from).collect();
                narrowed.in_set(x, &values).expect("values of the domain");
            }
            let probed = Solver::new(&m).all(&SearchOptions::default().probe(true));
            let plain = Solver::new(&narrowed).all(&SearchOptions::default());
            assert_eq!(probed.stats.solutions, count, "{n}-queens");
            assert_eq!(probed.solutions, plain.solutions, "{n}-queens");
            let shape = |o: &crate::Outcome| (o.stats.nodes, o.stats.choices, o.stats.failures);
            assert_eq!(shape(&probed), shape(&plain), "{n}-queens");
        }
    }
}
