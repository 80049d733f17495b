//! Counting on several threads ([`Solver::count_parallel`]).
//!
//! The calling thread first opens the top of the tree, the subtree with the
//! largest search space first, until enough subtrees are waiting; every
//! thread (the calling one too) then takes the next waiting subtree, largest
//! first, and counts it whole with its own copy of the solver, until none is
//! left. Each subtree starts from its parent's saved fixpoint and decision,
//! exactly as the sequential search enters it, so every node is propagated
//! from the same state as there, and counted by the same code
//! ([`Solver::open`]): the summed statistics are those of
//! [`Solver::count`], whatever the threads and however the subtrees fall to
//! them.

use std::cmp::{self, Reverse};
use std::collections::BinaryHeap;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use super::{Branch, Next, Opened, Outcome, SearchOptions, SearchStatus, Solver, Stats, VarOrder};
use crate::domain::Domain;

/// Subtrees opened a thread before the threads start: enough that a thread
/// that drew small ones finds more while another counts a large one (the
/// split opens about as many nodes, a fraction of a millisecond).
const SUBTREES_PER_THREAD: usize = 128;

/// The most nodes the split opens for each subtree it is to leave waiting:
/// it keeps one saved state for each choice it opens.
const OPENED_PER_SUBTREE: usize = 4;

/// The most words of saved states the split keeps (8 MiB), so that many
/// threads on a wide model do not make it open a vast number of nodes.
const SPLIT_WORDS: usize = 1 << 20;

/// A subtree still to count: the node that `decision` leads to from the
/// parent whose fixpoint is saved at `state` (words of the split's arena).
#[derive(Clone, Copy, Debug)]
struct Subtree {
    state: usize,
    decision: Branch,
    depth: u32,
}

/// The size of a subtree's search space before propagation, as a base-2
/// logarithm: its parent's, with the branching variable's domain narrowed
/// by the decision. Ordered (sizes are never NaN); only the split's order
/// depends on it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Size(f64);

impl Eq for Size {}

impl PartialOrd for Size {
    fn partial_cmp(&self, other: &Size) -> Option<cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Size {
    fn cmp(&self, other: &Size) -> cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The base-2 logarithm of the number of assignments of `doms`.
fn log_size(doms: &[u64]) -> f64 {
    doms.iter().map(|&d| log_values(Domain::from_bits(d))).sum()
}

/// The base-2 logarithm of the number of values in `d` (0 for none).
fn log_values(d: Domain) -> f64 {
    f64::from(d.size().max(1)).log2()
}

/// The subtrees to count and the next one to hand out, shared by the
/// threads.
struct Work<'a> {
    states: &'a [u64],
    subtrees: &'a [Subtree],
    next: AtomicUsize,
}

impl Stats {
    /// Adds the counts of a disjoint part of the same tree.
    fn absorb(&mut self, part: Stats) {
        self.nodes += part.nodes;
        self.choices += part.choices;
        self.failures += part.failures;
        self.solutions += part.solutions;
        self.max_depth = self.max_depth.max(part.max_depth);
        self.propagations += part.propagations;
    }
}

impl Solver {
    /// Counts the solutions as [`Solver::count`] does, on `threads` threads
    /// (the calling one among them).
    ///
    /// The outcome is the same as `count`'s, statistics included, for any
    /// number of threads and on every run: the tree is split into subtrees
    /// that are counted whole and summed, and each node is propagated from
    /// the state the sequential search gives it. Only the order in which
    /// the nodes are visited differs, and a count does not show it.
    ///
    /// It pays on searches of milliseconds or more: starting the threads
    /// costs tens of microseconds, more than a whole zebra puzzle, and a
    /// tree the split opens whole (up to a few hundred nodes a thread, fewer on a model
    /// with a wide state) starts no thread at all. With one
    /// thread, or with a node limit (a search cut at the same node on every
    /// machine needs one order of visit) or with [`VarOrder::DomWdeg`],
    /// [`SearchOptions::last_conflict`] or [`SearchOptions::restarts`]
    /// (their branching learns from the nodes before, in one order of
    /// visit) or [`SearchOptions::probe`], it
    /// counts on the calling thread, exactly as `count`. A time limit is checked by every thread; when it
    /// cuts the search short the partial counts depend on the timing, as
    /// they do for `count`.
    ///
    /// ```
    /// use std::num::NonZeroUsize;
    ///
    /// use bitfd::{Model, SearchOptions, Solver, Strength};
    ///
    /// // Eight queens, one a row: columns and both diagonals all different.
    /// let mut m = Model::new();
    /// let rows: Vec<_> = (0..8)
    ///     .map(|i| m.int_var(&format!("row {i}"), 0, 7))
    ///     .collect::<Result<_, _>>()?;
    /// let up: Vec<i64> = (0..8).collect();
    /// let down: Vec<i64> = (0..8).map(|i| 7 - i).collect();
    /// m.all_different(&rows, Strength::Value)?;
    /// m.all_different_offsets(&rows, &up, Strength::Value)?;
    /// m.all_different_offsets(&rows, &down, Strength::Value)?;
    ///
    /// let options = SearchOptions::default();
    /// let two = NonZeroUsize::new(2).expect("not zero");
    /// let parallel = Solver::new(&m).count_parallel(&options, two);
    /// let sequential = Solver::new(&m).count(&options);
    /// assert_eq!(parallel.stats.solutions, 92);
    /// assert_eq!(parallel.stats, sequential.stats);
    /// # Ok::<(), bitfd::ModelError>(())
    /// ```
    pub fn count_parallel(&mut self, options: &SearchOptions, threads: NonZeroUsize) -> Outcome {
        self.count_split(options, threads.get(), SUBTREES_PER_THREAD)
    }

    /// [`Solver::count_parallel`] with `per_thread` subtrees opened a
    /// thread (tests make small trees reach the threads this way).
    fn count_split(
        &mut self,
        options: &SearchOptions,
        threads: usize,
        per_thread: usize,
    ) -> Outcome {
        // dom/wdeg, the last conflict and restarts learn from the failures
        // before each node, in the order of one sequential search: subtrees
        // counted apart would branch differently on each number of threads.
        // (A probed root is left to the sequential search too.)
        if threads <= 1
            || options.node_limit.is_some()
            || options.var_order == VarOrder::DomWdeg
            || options.last_conflict
            || options.restarts.is_on()
            || options.probe
        {
            return self.count(options);
        }
        self.start(options);
        // The split opens its nodes in the engine's own state (the search
        // loop, in its levels).
        self.engine.reset();
        let wanted = threads.saturating_mul(per_thread);
        // Saved states for at most SPLIT_WORDS words, whatever the threads.
        let width = self.engine.state_len().max(1);
        let most = OPENED_PER_SUBTREE
            .saturating_mul(wanted)
            .min((SPLIT_WORDS / width).max(1));
        let (states, subtrees, mut status) = self.split(wanted, most);
        // The split's own nodes, and the root's failure if it failed: the
        // subtrees' searches below reuse both fields.
        let (mut stats, root_failure) = (self.stats, self.root_failure);
        if status == SearchStatus::Complete && !subtrees.is_empty() {
            let work = Work {
                states: &states,
                subtrees: &subtrees,
                next: AtomicUsize::new(0),
            };
            let mut parts = Vec::with_capacity(threads);
            thread::scope(|scope| {
                // One helper fewer than the threads asked for, and no more
                // than there are subtrees; if the system cannot start one,
                // the threads started share the work.
                let helpers: Vec<_> = (1..threads.min(subtrees.len()))
                    .map_while(|_| {
                        let mut helper = self.clone();
                        let work = &work;
                        thread::Builder::new()
                            .spawn_scoped(scope, move || helper.count_subtrees(work))
                            .ok()
                    })
                    .collect();
                parts.push(self.count_subtrees(&work));
                for helper in helpers {
                    match helper.join() {
                        Ok(part) => parts.push(part),
                        // A user's propagator panicked on that thread.
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
            });
            for (part, part_status) in parts {
                stats.absorb(part);
                if part_status != SearchStatus::Complete {
                    status = part_status;
                }
            }
        }
        self.stats = stats;
        self.root_failure = root_failure;
        self.next = Next::Done(status);
        Outcome {
            status,
            solutions: Vec::new(),
            stats,
            root_failure,
        }
    }

    /// Opens the tree from the root until at least `wanted` subtrees wait,
    /// the tree is done or `most` nodes are open, always opening the
    /// waiting subtree with the largest search space (see [`Size`]): in a
    /// binary tree the right branches (`x != v`)
    /// hold most of it, so opening level by level would leave one subtree
    /// with half the work. Returns the saved parent states, the waiting
    /// subtrees, largest first (so that the small ones fill in at the end),
    /// and whether the time limit stopped the split; the nodes opened are
    /// counted in `stats`.
    fn split(&mut self, wanted: usize, most: usize) -> (Vec<u64>, Vec<Subtree>, SearchStatus) {
        let width = self.engine.state_len();
        let propagations = self.engine.propagations();
        let mut states = Vec::new();
        // Every subtree made, and the waiting ones by size (the earlier made
        // first among equals), as indices into it.
        let mut made: Vec<Subtree> = Vec::new();
        let mut waiting: BinaryHeap<(Size, Reverse<usize>)> = BinaryHeap::new();
        let (mut node, mut opened) = (None, 0);
        let status = loop {
            if let Some(status) = self.limit_reached() {
                // The node about to be opened was not: it still waits.
                waiting.extend(node);
                break status;
            }
            let (depth, decision) = match node {
                None => (0, None),
                Some((_, Reverse(at))) => {
                    let Subtree {
                        state,
                        decision,
                        depth,
                        ..
                    } = made[at];
                    self.engine.restore(&states[state..state + width]);
                    (depth, Some(decision))
                }
            };
            if let Opened::Choice(branch) = self.open(depth, decision, &mut ()) {
                let state = states.len();
                states.resize(state + width, 0);
                self.engine.save(&mut states[state..]);
                let size = log_size(self.engine.domain_bits());
                let before = self.engine.dom(self.engine.var_at(branch.var as usize));
                for decision in [branch, branch.negate()] {
                    let after = before & decision.keep;
                    let size = size - log_values(before) + log_values(after);
                    waiting.push((Size(size), Reverse(made.len())));
                    made.push(Subtree {
                        state,
                        decision,
                        depth: depth + 1,
                    });
                }
            }
            opened += 1;
            // Enough subtrees; or a tree so thin (failed left branches all
            // down a path) that opening more would only search it alone and
            // keep a state for every choice on the way: the threads share
            // what there is.
            if waiting.len() >= wanted || opened >= most {
                break SearchStatus::Complete;
            }
            match waiting.pop() {
                Some(largest) => node = Some(largest),
                None => break SearchStatus::Complete,
            }
        };
        self.stats.propagations = self.engine.propagations() - propagations;
        let subtrees = waiting
            .into_sorted_vec()
            .into_iter()
            .rev()
            .map(|(_, Reverse(at))| made[at])
            .collect();
        (states, subtrees, status)
    }

    /// Counts subtrees of `work` until none is left (or the time limit
    /// passes): their statistics summed, and why it stopped.
    fn count_subtrees(&mut self, work: &Work<'_>) -> (Stats, SearchStatus) {
        let width = self.engine.state_len();
        let mut total = Stats::default();
        while let Some(subtree) = work.subtrees.get(work.next.fetch_add(1, Ordering::Relaxed)) {
            self.stats = Stats::default();
            // The parent's state, where the search opens the subtree's
            // root. Restoring it in the engine empties the queue for the
            // subtree's first decision.
            let parent = &work.states[subtree.state..subtree.state + width];
            self.engine.restore(parent);
            self.enter(Some(parent));
            // The first step applies the decision.
            self.next = Next::Visit {
                decision: Some(subtree.decision),
                depth: subtree.depth,
            };
            // One step goes through every solution (a count keeps none);
            // the subtree ends when its last frame is popped.
            let status = match self.step(&mut (), true) {
                Err(status) => status,
                Ok(()) => unreachable!("a step that goes through solutions ends at the end"),
            };
            total.absorb(self.stats);
            if status != SearchStatus::Complete {
                return (total, status);
            }
        }
        (total, SearchStatus::Complete)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::time::Duration;

    use super::*;
    use crate::check::SplitMix64;
    use crate::{Model, Strength, VarId};

    /// A random model of 3 to 8 variables over 0..=5 with all-differents of
    /// both strengths, orderings and distances: trees from one node (or a
    /// root failure) to a few hundred.
    fn random_model(rng: &mut SplitMix64) -> Model {
        let mut m = Model::new();
        let n = 3 + rng.below(6);
        let vars: Vec<VarId> = (0..n)
            .map(|i| {
                let lo = rng.below(2) as i64;
                m.int_var(&format!("x{i}"), lo, lo + 2 + rng.below(4) as i64)
                    .expect("fresh")
            })
            .collect();
        for _ in 0..rng.below(5) {
            let (x, y) = (vars[rng.below(n)], vars[rng.below(n)]);
            let c = rng.below(3) as i64;
            match rng.below(4) {
                0 => m.less(x, y).map(drop),
                1 => m.distance(x, y, c).map(drop),
                2 => m.not_equal(x, y).map(drop),
                _ => m.offset(x, y, c - 1).map(drop),
            }
            .expect("valid");
        }
        if rng.below(2) == 0 {
            let k = 2 + rng.below(n - 1);
            let strength = if rng.below(2) == 0 {
                Strength::Value
            } else {
                Strength::Domain
            };
            m.all_different(&vars[..k], strength).expect("valid");
        }
        m
    }

    #[test]
    fn split_counts_equal_the_sequential_counts() {
        // Few subtrees a thread, so that the helpers get work even in small
        // trees; every statistic and the root's failure must be exactly the
        // sequential search's, for every split and thread count.
        let mut rng = SplitMix64::new(17);
        let (mut helped, mut root_failures) = (0, 0);
        for _ in 0..250 {
            let model = random_model(&mut rng);
            let options = SearchOptions::default();
            let expected = Solver::new(&model).count(&options);
            for threads in 2..=3 {
                for per_thread in [1, 2, 5] {
                    let mut solver = Solver::new(&model);
                    let got = solver.count_split(&options, threads, per_thread);
                    assert_eq!(got.stats, expected.stats, "{threads} threads, {per_thread}");
                    assert_eq!(got.status, SearchStatus::Complete);
                    assert_eq!(got.root_failure, expected.root_failure);
                    assert_eq!(solver.stats(), expected.stats);
                    // The solver is left ready for another search.
                    assert_eq!(solver.count(&options).stats, expected.stats);
                }
            }
            helped += usize::from(expected.stats.nodes > 10);
            root_failures += usize::from(expected.root_failure.is_some());
        }
        assert!(helped > 60 && root_failures > 3, "{helped} {root_failures}");
    }

    #[test]
    fn the_split_opens_at_most_the_nodes_it_may() {
        // x = y and x != y: propagation sees the conflict only once both are
        // fixed. Split in halves, the tree is complete over x's 64 values
        // (127 nodes) and never has more than 64 subtrees waiting: asked for
        // 100, the split stops at the nodes it may open, not at the end of
        // the tree, and the count is still the sequential one.
        let mut m = Model::new();
        let x = m.int_var("x", 0, 63).expect("fresh");
        let y = m.int_var("y", 0, 63).expect("fresh");
        m.equal(x, y).expect("valid");
        m.all_different(&[x, y], Strength::Value).expect("valid");
        let options = SearchOptions::default().value_order(crate::ValueOrder::Split);
        let expected = Solver::new(&m).count(&options);
        assert_eq!(expected.stats.nodes, 127);
        for most in [1, 10, 100] {
            let mut solver = Solver::new(&m);
            solver.start(&options);
            let (states, subtrees, status) = solver.split(100, most);
            assert_eq!(status, SearchStatus::Complete);
            assert_eq!(solver.stats.nodes, most as u64);
            assert!(states.len() <= most * solver.engine.state_len());
            assert!(!subtrees.is_empty());
        }
        for threads in 2..=4 {
            let got = Solver::new(&m).count_split(&options, threads, 1);
            assert_eq!(got.stats, expected.stats, "{threads} threads");
        }
    }

    /// N-queens with value all-differents: columns and both diagonals.
    pub(in crate::search) fn queens(n: usize) -> (Model, Vec<VarId>) {
        let mut m = Model::new();
        let rows: Vec<VarId> = (0..n)
            .map(|i| {
                m.int_var(&format!("row {i}"), 0, n as i64 - 1)
                    .expect("fresh")
            })
            .collect();
        let up: Vec<i64> = (0..n as i64).collect();
        let down: Vec<i64> = (0..n as i64).map(|i| n as i64 - 1 - i).collect();
        m.all_different(&rows, Strength::Value).expect("valid");
        m.all_different_offsets(&rows, &up, Strength::Value)
            .expect("valid");
        m.all_different_offsets(&rows, &down, Strength::Value)
            .expect("valid");
        (m, rows)
    }

    #[test]
    fn a_time_limit_stops_every_thread() {
        // 10-queens takes a millisecond or more; a tenth of that stops the
        // split's subtrees wherever the threads are.
        let (m, _) = queens(10);
        let full = Solver::new(&m).count(&SearchOptions::default()).stats;
        let options = SearchOptions::default().time_limit(Duration::from_micros(100));
        let got = Solver::new(&m).count_split(&options, 2, 8);
        assert_eq!(got.status, SearchStatus::TimeLimit);
        assert!(got.stats.nodes < full.nodes, "{:?}", got.stats);
    }

    #[test]
    fn any_number_of_threads_gives_the_count() {
        // More threads than subtrees start no idle helpers; an absurd count
        // opens no more than the saved states' bound allows (here the whole
        // tree, on the calling thread) and neither panics nor hoards memory.
        let (m, _) = queens(10);
        let options = SearchOptions::default();
        let expected = Solver::new(&m).count(&options).stats;
        for threads in [64, usize::MAX] {
            let threads = NonZeroUsize::new(threads).expect("not zero");
            let got = Solver::new(&m).count_parallel(&options, threads);
            assert_eq!(got.stats, expected);
        }
    }

    /// Panics when its variable is fixed to `at`, as a faulty user
    /// propagator might.
    #[derive(Debug)]
    struct PanicsAt {
        x: VarId,
        at: u8,
    }

    impl crate::propagator::Propagator for PanicsAt {
        fn name(&self) -> &'static str {
            "panics"
        }

        fn subscribe(&self, subs: &mut crate::propagator::Subscriptions) {
            subs.on(self.x, crate::propagator::Event::Fixed);
        }

        fn propagate(
            &self,
            ctx: &mut crate::propagator::Ctx<'_>,
        ) -> crate::propagator::Propagation {
            assert!(
                ctx.dom(self.x).value() != Some(self.at),
                "a user propagator failed"
            );
            Ok(crate::propagator::Status::Fixpoint)
        }
    }

    #[test]
    #[should_panic(expected = "a user propagator failed")]
    fn a_panic_on_any_thread_reaches_the_caller() {
        // The last row fixed to its last column happens deep in the tree,
        // in subtrees of either thread: the panic must come out of the
        // count, not hang it or be lost.
        let (mut m, rows) = queens(8);
        m.post_propagator(PanicsAt { x: rows[7], at: 7 })
            .expect("valid");
        Solver::new(&m).count_split(&SearchOptions::default(), 2, 4);
    }

    #[test]
    fn limits_end_a_parallel_count_as_they_end_a_count() {
        let mut rng = SplitMix64::new(29);
        let two = NonZeroUsize::new(2).expect("not zero");
        for _ in 0..50 {
            let model = random_model(&mut rng);
            // A node limit makes it the sequential count, cut at the same
            // node.
            let options = SearchOptions::default().node_limit(4);
            let expected = Solver::new(&model).count(&options);
            let got = Solver::new(&model).count_parallel(&options, two);
            assert_eq!((got.status, got.stats), (expected.status, expected.stats));
            // No time at all: nothing is opened.
            let options = SearchOptions::default().time_limit(Duration::ZERO);
            let got = Solver::new(&model).count_split(&options, 2, 1);
            assert_eq!(got.status, SearchStatus::TimeLimit);
            assert_eq!(got.stats, Stats::default());
        }
    }
}
