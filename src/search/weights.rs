//! Conflict weights for [`VarOrder::DomWdeg`](super::VarOrder::DomWdeg):
//! where the search has failed so far.
//!
//! Each constraint weighs 1 plus the failed leaves it caused in the current
//! search (Boussemart, Hemery, Lecoutre and Sais, "Boosting systematic
//! search by weighting constraints", 2004), and a variable weighs the sum of
//! its constraints' weights. The branching variable is the one with the
//! smallest domain size per weight: small domains first, as first-fail,
//! but among the variables of the constraints that keep failing. Weights
//! only grow, and only with the search's own failures, so the same model
//! and options give the same tree on every run.
//!
//! A constraint's variables are those its propagators subscribe to; a
//! variable's weight counts every constraint it is in, fixed or not (the
//! paper counts only constraints with another open variable, which costs a
//! scan at each node).

use crate::engine::Engine;
use crate::ids::ConstraintId;

/// The variables' conflict weights, and each constraint's variables to
/// raise them by.
#[derive(Clone, Debug, Default)]
pub(super) struct Weights {
    /// By constraint index: the indices of its variables, each once.
    scopes: Vec<Vec<u32>>,
    /// By variable index: the sum of its constraints' weights.
    var: Vec<u64>,
    /// Whether `scopes` belongs to the engine's current model.
    loaded: bool,
}

impl Weights {
    /// Forgets the scopes: the engine has a new model.
    pub(super) fn unload(&mut self) {
        self.loaded = false;
    }

    /// Starts a search on `engine`'s model: every constraint weighs 1.
    pub(super) fn start(&mut self, engine: &Engine) {
        if !self.loaded {
            self.scopes = engine.constraint_vars();
            self.loaded = true;
        }
        self.var.clear();
        self.var.resize(engine.len(), 0);
        for scope in &self.scopes {
            for &x in scope {
                self.var[x as usize] += 1;
            }
        }
    }

    /// Constraint `by` caused a failed leaf: each of its variables weighs
    /// one more.
    pub(super) fn failed(&mut self, by: ConstraintId) {
        for &x in &self.scopes[by.index()] {
            self.var[x as usize] += 1;
        }
    }

    /// A recorded nogood on the variables `vars` caused a failed leaf:
    /// each weighs one more.
    pub(super) fn failed_vars(&mut self, vars: &[u32]) {
        for &x in vars {
            self.var[x as usize] += 1;
        }
    }

    /// By variable index: the weights.
    pub(super) fn of_vars(&self) -> &[u64] {
        &self.var
    }
}

/// The index of the open variable (two values or more) with the smallest
/// domain size per weight, `size / weight`, the earliest of equals; `None`
/// when every domain is fixed. A variable of weight 0 (in no constraint)
/// counts as weight 1.
pub(super) fn smallest_per_weight(doms: &[u64], weights: &[u64]) -> Option<usize> {
    let mut best: Option<(usize, u64, u64)> = None;
    for (i, (&d, &w)) in doms.iter().zip(weights).enumerate() {
        let size = u64::from(d.count_ones());
        if size < 2 {
            continue;
        }
        let w = w.max(1);
        // size / w < best_size / best_w, without division; sizes are at
        // most 64 and weights below 2^57 in any search that ends, so the
        // products fit.
        if best.is_none_or(|(_, bs, bw)| size * bw < bs * w) {
            best = Some((i, size, w));
        }
    }
    best.map(|(i, _, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_size_per_weight_wins_and_ties_go_to_the_earliest() {
        let d = |n: u32| (1u64 << n) - 1; // values 0..n
        // 3/1 against 4/2: the second.
        assert_eq!(smallest_per_weight(&[d(3), d(4)], &[1, 2]), Some(1));
        // 2/1 against 4/2: equal, the first.
        assert_eq!(smallest_per_weight(&[d(2), d(4)], &[1, 2]), Some(0));
        // Fixed ones never count, whatever they weigh.
        assert_eq!(smallest_per_weight(&[d(1), d(5)], &[100, 1]), Some(1));
        assert_eq!(smallest_per_weight(&[d(1), d(1)], &[1, 1]), None);
        // Weight 0 counts as 1: 2/0 is 2/1, beaten by 3/2.
        assert_eq!(smallest_per_weight(&[d(2), d(3)], &[0, 2]), Some(1));
    }
}
