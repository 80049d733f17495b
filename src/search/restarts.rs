//! Restarts that keep what the search refuted, for
//! [`SearchOptions::restarts`](super::SearchOptions::restarts): the cutoffs
//! ([`Schedule`]) and the nogoods recorded at each restart ([`Nogoods`]).
//!
//! # Nogoods from restarts
//!
//! When a run reaches its cutoff, the search goes back to the root and
//! starts over, with the conflict weights it has learnt (so dom/wdeg picks
//! other variables first). What the run refuted is kept as *reduced
//! nld-nogoods* (Lecoutre, Saïs, Tabary and Vidal, "Recording and
//! minimizing nogoods from restarts", 2007): the branch it stopped on is a
//! sequence of left decisions (`x = v`, `x <= v`) and right ones (`x != v`,
//! `x > v`); for each right decision, the left decisions before it plus
//! its own left one lead only to subtrees already searched to the end, so
//! their conjunction is forbidden from then on. A nogood is a clause in
//! the other direction: one of its *atoms* `x in keep` must not hold.
//!
//! Atoms that hold at the root are left out, and a nogood with an atom
//! that fails at the root is not kept (the root's state only narrows
//! within a search). A nogood of one atom narrows the root's state once
//! and is not kept either.
//!
//! So each restart turns the part of the tree already searched into
//! clauses, and the search stays complete: a solution found before a
//! restart is under a right decision's left one, so it is not found again,
//! and counts stay exact.
//!
//! # Propagation: two watched atoms
//!
//! Each kept nogood watches two of its atoms that do not hold, its first
//! two (as MiniSat's clauses watch two literals). A node's propagation is
//! followed by a look at the variables whose domain changed since the
//! parent's state: for each nogood watching such a variable whose atom now
//! holds, another atom that does not hold takes its place; when none is
//! left the nogood is *unit*, and the other watched atom is made to fail
//! (its variable loses the atom's values), or, when that one holds too,
//! the node fails. Going back up the tree only widens domains, so a
//! watched atom that does not hold keeps not holding: the watches need no
//! undoing when the search backtracks, as in a SAT solver.
//!
//! # Memory
//!
//! The store holds at most [`MAX_ATOMS`] atoms (12 bytes each, plus two
//! watch entries a nogood). A restart whose nogoods would not fit is not
//! made, and none after it: the run goes on to the end as a plain
//! depth-first search, which keeps the search complete.

use std::mem;

use super::{Branch, Solver};
use crate::domain::Domain;
use crate::engine::Running;
use crate::ids::ConstraintId;
use crate::observer::{DecisionOp, Observer};

/// The most atoms the store keeps, over all its nogoods (12 MiB).
pub(super) const MAX_ATOMS: usize = 1 << 20;

/// When a search restarts: after a number of failed leaves in the run
/// (the part of the search since the last restart), which grows from run
/// to run, so that some run always ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Restarts {
    /// Never: one depth-first search.
    #[default]
    Off,
    /// After `first` failed leaves in the first run, and half as many
    /// again as the run before in each run after (1.5 times as many,
    /// rounded down, at least one more).
    Geometric {
        /// The failed leaves of the first run (0 counts as 1).
        first: u64,
    },
    /// After `unit` times the terms of the Luby sequence 1, 1, 2, 1, 1, 2,
    /// 4, 1, 1, 2, ... failed leaves (Luby, Sinclair and Zuckerman, 1993).
    Luby {
        /// The failed leaves of a run of term 1 (0 counts as 1).
        unit: u64,
    },
}

impl Restarts {
    /// Whether the search restarts at all.
    pub fn is_on(self) -> bool {
        self != Restarts::Off
    }
}

/// The `i`-th term of the Luby sequence, from `i = 1`: 1, 1, 2, 1, 1, 2,
/// 4, ... (the term `2^(k-1)` ends each block of `2^k - 1` terms, which
/// repeats the block before twice).
fn luby(mut i: u64) -> u64 {
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = 64 - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// Where a search is in its restart schedule.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Schedule {
    /// The failed leaves of the search when the current run started.
    since: u64,
    /// The failed leaves the current run may have.
    cutoff: u64,
    /// The runs finished (restarts made).
    runs: u64,
}

impl Schedule {
    /// The schedule of a new search.
    pub(super) fn start(restarts: Restarts) -> Schedule {
        let mut schedule = Schedule::default();
        schedule.cutoff = schedule.next_cutoff(restarts);
        schedule
    }

    /// The cutoff of the run after `self.runs` finished ones.
    fn next_cutoff(&self, restarts: Restarts) -> u64 {
        match restarts {
            Restarts::Off => u64::MAX,
            Restarts::Geometric { first } => {
                if self.runs == 0 {
                    first.max(1)
                } else {
                    (self.cutoff + self.cutoff / 2).max(self.cutoff + 1)
                }
            }
            Restarts::Luby { unit } => unit.max(1).saturating_mul(luby(self.runs + 1)),
        }
    }

    /// Whether the run has used its failed leaves, `failures` being the
    /// search's.
    pub(super) fn is_due(&self, failures: u64) -> bool {
        failures - self.since >= self.cutoff
    }

    /// A new run starts, after `failures` failed leaves of the search.
    pub(super) fn restarted(&mut self, restarts: Restarts, failures: u64) {
        self.runs += 1;
        self.cutoff = self.next_cutoff(restarts);
        self.since = failures;
    }

    /// The restarts made.
    pub(super) fn runs(&self) -> u64 {
        self.runs
    }
}

/// An atom is `x in keep`: it *holds* in a state where every value of `x`
/// is in `keep`, *fails* where none is.
#[inline(always)]
fn holds(doms: &[u64], var: u32, keep: u64) -> bool {
    doms[var as usize] & !keep == 0
}

/// Whether the atom `var in keep` fails in `doms` (see [`holds`]).
#[inline(always)]
fn fails(doms: &[u64], var: u32, keep: u64) -> bool {
    doms[var as usize] & keep == 0
}

/// The nogoods of a search and their watches.
#[derive(Clone, Debug, Default)]
pub(super) struct Nogoods {
    /// The atoms' variables (indices), nogood after nogood; a nogood's
    /// first two are its watched atoms.
    vars: Vec<u32>,
    /// The atoms' values, as `vars`.
    keeps: Vec<u64>,
    /// Where each nogood's atoms start, and one past the last: nogood `c`
    /// is `starts[c]..starts[c + 1]`. Every kept nogood has two atoms or
    /// more, no two on the same variable.
    starts: Vec<u32>,
    /// By variable: the nogoods one of whose two watched atoms is on it.
    watches: Vec<Vec<u32>>,
    /// The domains of the last state looked at: a node's parent's, then
    /// the node's as its propagation goes.
    before: Vec<u64>,
    /// One-atom nogoods of the last restart, for the root's state:
    /// `(var, keep)`, the variable to lose the values of `keep`.
    units: Vec<(u32, u64)>,
    /// The atoms of the left decisions on the branch so far, while a
    /// branch is read, and the index in it of each variable's (`u32::MAX`
    /// for none).
    prefix: Vec<(u32, u64)>,
    at: Vec<u32>,
    /// Whether no more nogoods fit: no more restarts in this search.
    full: bool,
}

/// How a node's nogood propagation ended badly.
pub(super) enum Failure {
    /// A propagator found a conflict.
    Constraint(ConstraintId),
    /// Every atom of nogood `c` holds.
    Nogood(u32),
}

impl Nogoods {
    /// Forgets every nogood: a new search on a model of `vars` variables.
    pub(super) fn start(&mut self, vars: usize) {
        self.vars.clear();
        self.keeps.clear();
        self.starts.clear();
        self.starts.push(0);
        self.watches.iter_mut().for_each(Vec::clear);
        self.watches.resize_with(vars, Vec::new);
        self.before.clear();
        self.before.resize(vars, 0);
        self.units.clear();
        self.at.clear();
        self.at.resize(vars, u32::MAX);
        self.full = false;
    }

    /// Forgets every nogood, keeping the storage: a search that does not
    /// restart.
    pub(super) fn forget(&mut self) {
        self.starts.truncate(1);
        self.units.clear();
    }

    /// Whether there is something to propagate: a nogood kept, or a unit
    /// for the root.
    #[inline(always)]
    pub(super) fn is_active(&self) -> bool {
        self.starts.len() > 1 || !self.units.is_empty()
    }

    /// The variables of nogood `c`.
    pub(super) fn vars_of(&self, c: u32) -> &[u32] {
        let c = c as usize;
        &self.vars[self.starts[c] as usize..self.starts[c + 1] as usize]
    }

    /// Reads the nogoods of `path`, the decisions from the root to the
    /// node the search is about to open, whose first level's domains are
    /// `root` (see the module docs), and keeps them. Returns false,
    /// keeping none, when they would not fit (then no restart is made in
    /// this search again).
    pub(super) fn record(&mut self, path: &[Branch], root: &[u64]) -> bool {
        if self.full {
            return false;
        }
        let lefts = path.iter().filter(|b| is_left(b.op)).count();
        let rights = path.len() - lefts;
        if self.vars.len() + rights * (lefts + 1) > MAX_ATOMS {
            self.full = true;
            return false;
        }
        self.prefix.clear();
        for b in path {
            if is_left(b.op) {
                if !self.push_prefix(b.var, b.keep.bits(), root) {
                    // This left decision fails at the root: so does every
                    // nogood from here on.
                    break;
                }
                continue;
            }
            // A right decision: the left one it refutes, after the prefix.
            let (var, keep) = (b.var, (!b.keep).bits());
            let merged = match self.at[var as usize] {
                u32::MAX => keep,
                i => self.prefix[i as usize].1 & keep,
            };
            if fails(root, var, merged) {
                continue;
            }
            // Its atom does not hold at the root: the branch goes on
            // below the right decision, or is about to (see the module
            // docs), so the root has values both sides.
            debug_assert!(!holds(root, var, merged), "a right decision's own atom");
            let mut atoms: Vec<(u32, u64)> = Vec::with_capacity(self.prefix.len() + 1);
            atoms.push((var, merged));
            atoms.extend(self.prefix.iter().copied().filter(|&(x, _)| x != var));
            if atoms.len() == 1 {
                self.units.push(atoms[0]);
            } else {
                self.keep(&atoms);
            }
        }
        for &(x, _) in &self.prefix {
            self.at[x as usize] = u32::MAX;
        }
        true
    }

    /// Adds the left decision `var in keep` to the prefix (merged with one
    /// on the same variable); returns false if the merged atom fails at
    /// the root. An atom that holds at the root is left out.
    fn push_prefix(&mut self, var: u32, keep: u64, root: &[u64]) -> bool {
        let i = self.at[var as usize];
        let merged = match i {
            u32::MAX => keep,
            i => self.prefix[i as usize].1 & keep,
        };
        if fails(root, var, merged) {
            return false;
        }
        if !holds(root, var, merged) {
            if i == u32::MAX {
                self.at[var as usize] = self.prefix.len() as u32;
                self.prefix.push((var, merged));
            } else {
                self.prefix[i as usize].1 = merged;
            }
        }
        true
    }

    /// Keeps a nogood of two atoms or more, none of which holds or fails
    /// at the root, watching its first two.
    fn keep(&mut self, atoms: &[(u32, u64)]) {
        let c = (self.starts.len() - 1) as u32;
        for &(x, keep) in atoms {
            self.vars.push(x);
            self.keeps.push(keep);
        }
        self.starts.push(self.vars.len() as u32);
        self.watches[atoms[0].0 as usize].push(c);
        self.watches[atoms[1].0 as usize].push(c);
    }

    /// Before a node is propagated from its parent's state `state`:
    /// remembers its domains, and narrows it by the root's units (only at
    /// the root of a run, where the units of the last restart wait).
    #[inline(always)]
    pub(super) fn before_node(&mut self, run: &mut Running<'_>, state: &mut [u64]) {
        self.before.copy_from_slice(run.domain_bits(state));
        for (x, keep) in self.units.drain(..) {
            let kept = run.restrict(state, run.var_at(x as usize), Domain::from_bits(!keep));
            debug_assert!(kept, "a unit's atom neither holds nor fails at the root");
        }
    }

    /// After a node has propagated to a fixpoint in `state`: runs the
    /// watches of every variable that changed since [`Nogoods::before_node`],
    /// narrowing by the unit nogoods and propagating again, until neither
    /// narrows anything.
    pub(super) fn propagate<O: Observer>(
        &mut self,
        run: &mut Running<'_>,
        state: &mut [u64],
        observer: &mut O,
    ) -> Result<(), Failure> {
        loop {
            let mut narrowed = false;
            for x in 0..self.before.len() {
                let now = run.domain_bits(state)[x];
                if now == self.before[x] {
                    continue;
                }
                self.before[x] = now;
                // Taken out while its nogoods move their watches to other
                // variables (never to `x`: a nogood has one atom on it).
                let mut list = mem::take(&mut self.watches[x]);
                let found = self.watch(x as u32, &mut list, run, state, &mut narrowed);
                self.watches[x] = list;
                found?;
            }
            if !narrowed {
                return Ok(());
            }
            run.propagate_after(state, None, observer)
                .map_err(Failure::Constraint)?;
        }
    }

    /// Runs the nogoods of `list`, those watching `x`, in `state`.
    #[inline]
    fn watch(
        &mut self,
        x: u32,
        list: &mut Vec<u32>,
        run: &mut Running<'_>,
        state: &mut [u64],
        narrowed: &mut bool,
    ) -> Result<(), Failure> {
        let mut i = 0;
        while i < list.len() {
            let c = list[i];
            let (s, e) = (
                self.starts[c as usize] as usize,
                self.starts[c as usize + 1] as usize,
            );
            // `x`'s atom second, the other watched one first.
            if self.vars[s] == x {
                self.vars.swap(s, s + 1);
                self.keeps.swap(s, s + 1);
            }
            let doms = run.domain_bits(state);
            let (other, other_keep) = (self.vars[s], self.keeps[s]);
            if !holds(doms, x, self.keeps[s + 1]) || fails(doms, other, other_keep) {
                // Not all atoms can hold.
                i += 1;
                continue;
            }
            // Another atom that does not hold takes the watch.
            if let Some(k) = (s + 2..e).find(|&k| !holds(doms, self.vars[k], self.keeps[k])) {
                self.vars.swap(s + 1, k);
                self.keeps.swap(s + 1, k);
                self.watches[self.vars[s + 1] as usize].push(c);
                list.swap_remove(i);
                continue;
            }
            if holds(doms, other, other_keep) {
                return Err(Failure::Nogood(c));
            }
            // Unit: the other watched atom must fail.
            let y = run.var_at(other as usize);
            run.restrict(state, y, Domain::from_bits(!other_keep));
            *narrowed = true;
            i += 1;
        }
        Ok(())
    }
}

/// Whether a decision is a left one (`x = v`, `x <= v`).
fn is_left(op: DecisionOp) -> bool {
    matches!(op, DecisionOp::Eq | DecisionOp::Le)
}

impl Solver {
    /// The restarts made by the current or last search (see
    /// [`SearchOptions::restarts`](super::SearchOptions::restarts)).
    pub fn restarts(&self) -> u64 {
        self.extras
            .as_ref()
            .map_or(0, |extras| extras.schedule.runs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_luby_sequence_starts_as_published() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn geometric_cutoffs_grow_by_half() {
        let restarts = Restarts::Geometric { first: 10 };
        let mut s = Schedule::start(restarts);
        let mut cutoffs = vec![s.cutoff];
        for _ in 0..4 {
            s.restarted(restarts, 0);
            cutoffs.push(s.cutoff);
        }
        assert_eq!(cutoffs, [10, 15, 22, 33, 49]);
        // From 1, each run still grows.
        let restarts = Restarts::Geometric { first: 0 };
        let mut s = Schedule::start(restarts);
        s.restarted(restarts, 0);
        assert_eq!(s.cutoff, 2);
    }
}
