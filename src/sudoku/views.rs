//! The dual viewpoints of a sudoku: where each value goes in each unit, as
//! variables channeled to the cells.
//!
//! A unit (row, column or box) of `n` cells, each taking a value `1..=n`,
//! is a permutation; its inverse says, for each value, the position of the
//! cell that takes it. The *dual variable* of value `v` in a unit takes the
//! positions `0..n` (along the row, down the column, row by row in the
//! box) where `v` can still go. [`Channel`] keeps one unit's cells and its
//! dual variables the two sides of the same relation: cell `i` can take
//! `v` exactly when `v`'s dual variable can take `i`.
//!
//! What this adds to the cells' all-differents (the quasigroup completion
//! literature's "bichanneling" models, Dotú, del Val and Cebrián 2003):
//! an all-different over the dual variables of one value in every row
//! (their values are columns) removes what the cells' units cannot see,
//! the fish patterns of sudoku solvers (X-wing, swordfish: `k` rows where
//! a value can only go in the same `k` columns keep it out of those
//! columns in every other row); and the search can branch on a dual
//! variable, "where does 5 go in row 3", when that has fewer choices than
//! any cell, as a SAT solver's decisions cover every "exactly one" group
//! of the plain encoding.

use crate::domain::{Domain, ones};
use crate::ids::VarId;
use crate::propagator::{Ctx, Event, Priority, Propagation, Propagator, Status, Subscriptions};

/// A unit's cells and their dual variables, channeled: `cells[i] = v`
/// (`v` in `1..=n`) exactly when `duals[v - 1] = i`.
///
/// Strength: each side keeps only what the other side's transpose allows
/// (the Hall reasoning that the relation also implies, as the cells are
/// then all different, is left to the units' all-differents).
/// Wakes on: any change of a cell or dual variable of the unit.
/// Idempotent: narrowing the cells to the duals' transpose and then the
/// duals to the narrowed cells' transpose leaves each side the other's
/// transpose.
#[derive(Clone, Debug)]
pub(super) struct Channel {
    /// The unit's cells, in position order (at most 36).
    cells: Vec<VarId>,
    /// By value `v` in `1..=n`, at `v - 1`: the position of the cell that
    /// takes `v`, in `0..n`.
    duals: Vec<VarId>,
}

impl Channel {
    /// Channels `cells` (values `1..=n`) with `duals` (positions `0..n`),
    /// `n` of each, `n` at most 36.
    pub(super) fn new(cells: Vec<VarId>, duals: Vec<VarId>) -> Channel {
        debug_assert!(cells.len() == duals.len() && cells.len() <= 36);
        Channel { cells, duals }
    }
}

impl Propagator for Channel {
    fn name(&self) -> &'static str {
        "channel"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        for &x in self.cells.iter().chain(&self.duals) {
            subs.on(x, Event::Changed);
        }
    }

    /// It reads and transposes `2n` domains of `n` values.
    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        let n = self.cells.len();
        // from_duals[i]: the values whose dual variable can take position
        // i, as a cell domain (bit v for value v).
        let mut from_duals = [0u64; 36];
        for (v, &y) in self.duals.iter().enumerate() {
            for i in ones(ctx.dom(y).bits()) {
                if let Some(slot) = from_duals.get_mut(i) {
                    *slot |= 1 << (v + 1);
                }
            }
        }
        // A cell keeps a value only if that value's dual variable can take
        // the cell's position; then the duals keep a position only if its
        // (narrowed) cell can take their value.
        let mut from_cells = [0u64; 36];
        for (i, &x) in self.cells.iter().enumerate() {
            let d = ctx.dom(x).bits() & from_duals[i];
            ctx.restrict(x, Domain::from_bits(d))?;
            for v in ones(d) {
                // v is in 1..=n: the cell domains hold no other values
                // once narrowed by `from_duals`.
                from_cells[v - 1] |= 1 << i;
            }
        }
        for (&y, &keep) in self.duals.iter().zip(&from_cells[..n]) {
            ctx.restrict(y, Domain::from_bits(keep))?;
        }
        Ok(Status::Fixpoint)
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        Some(
            self.cells.iter().enumerate().all(|(i, &x)| {
                let v = usize::from(value(x));
                (1..=self.duals.len()).contains(&v) && usize::from(value(self.duals[v - 1])) == i
            }) && self.duals.iter().enumerate().all(|(v, &y)| {
                let i = usize::from(value(y));
                i < self.cells.len() && usize::from(value(self.cells[i])) == v + 1
            }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::SplitMix64;
    use crate::{Engine, Model};

    /// A unit of `cells.len()` cells with those domains, channeled to duals
    /// with the domains `duals`.
    fn unit(cells: &[u64], duals: &[u64]) -> (Model, Vec<VarId>, Vec<VarId>) {
        let mut m = Model::new();
        let mut var = |name: String, d: u64| {
            m.var_with_domain(&name, Domain::from_bits(d))
                .expect("fresh")
        };
        let xs: Vec<VarId> = (0..cells.len())
            .map(|i| var(format!("x{i}"), cells[i]))
            .collect();
        let ys: Vec<VarId> = (0..duals.len())
            .map(|v| var(format!("y{v}"), duals[v]))
            .collect();
        m.post_propagator(Channel::new(xs.clone(), ys.clone()))
            .expect("own variables");
        (m, xs, ys)
    }

    #[test]
    fn a_value_whose_dual_cannot_take_a_position_leaves_that_cell() {
        // Value 2's dual can only take position 0: cell 1 loses 2. Cell 2
        // cannot take 1: value 1's dual loses position 2.
        let (m, xs, ys) = unit(&[0b110, 0b1110, 0b1000], &[0b111, 0b001, 0b110]);
        let mut engine = Engine::new(&m);
        engine.propagate().expect("satisfiable");
        assert_eq!(engine.dom(xs[1]).to_string(), "{1,3}");
        assert_eq!(engine.dom(ys[0]).to_string(), "{0,1}");
        assert_eq!(engine.dom(ys[1]).to_string(), "{0}");
        assert_eq!(engine.dom(xs[0]).to_string(), "{1,2}");
    }

    #[test]
    fn propagation_keeps_every_value_of_every_solution_of_the_relation() {
        // Brute force over every assignment of three cells (values 1..=3)
        // and three duals (positions 0..3): a value some solution gives a
        // variable stays, and a failure means no solution at all.
        let mut rng = SplitMix64::new(11);
        let mut pruned_some = 0;
        for round in 0..400 {
            let mut random = |shift: u32| loop {
                let d = (rng.below(8) as u64) << shift;
                if d != 0 {
                    break d;
                }
            };
            let cells: Vec<u64> = (0..3).map(|_| random(1)).collect();
            let duals: Vec<u64> = (0..3).map(|_| random(0)).collect();
            let doms: Vec<u64> = cells.iter().chain(&duals).copied().collect();
            let (m, xs, ys) = unit(&cells, &duals);
            let channel = Channel::new(xs.clone(), ys.clone());
            let mut supported = [0u64; 6];
            let mut values = [0u8; 6];
            for code in 0..4usize.pow(6) {
                for (i, v) in values.iter_mut().enumerate() {
                    *v = (code / 4usize.pow(i as u32) % 4) as u8;
                }
                if (0..6).any(|i| doms[i] >> values[i] & 1 == 0) {
                    continue;
                }
                if channel.check(&|x: VarId| values[x.index()]) == Some(true) {
                    for i in 0..6 {
                        supported[i] |= 1 << values[i];
                    }
                }
            }
            let mut engine = Engine::new(&m);
            match engine.propagate() {
                Err(_) => assert_eq!(supported, [0; 6], "round {round}: failed with a solution"),
                Ok(()) => {
                    for (i, &x) in xs.iter().chain(&ys).enumerate() {
                        let kept = engine.dom(x).bits();
                        assert_eq!(supported[i] & !kept, 0, "round {round}, variable {i}");
                        pruned_some += usize::from(kept != doms[i]);
                    }
                }
            }
        }
        assert!(pruned_some > 0, "some round prunes");
    }

    #[test]
    fn fixed_sides_that_disagree_fail() {
        // Cells 1, 2, 3 but value 1's dual says position 1.
        let (m, _, _) = unit(&[0b10, 0b100, 0b1000], &[0b10, 0b10, 0b100]);
        assert!(Engine::new(&m).propagate().is_err());
        let (m, _, _) = unit(&[0b10, 0b100, 0b1000], &[0b1, 0b10, 0b100]);
        assert!(Engine::new(&m).propagate().is_ok());
    }
}
