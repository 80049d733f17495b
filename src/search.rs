//! Depth-first search with binary branching, on copies of the engine state.
//!
//! # The tree
//!
//! At each node the engine propagates to a fixpoint. If a propagator fails,
//! the node is a *failed leaf*; if every variable is fixed, a *solution
//! leaf*; otherwise a *choice node*: search picks a variable `x` and a value
//! `v` ([`VarOrder`], [`ValueOrder`]) and explores the left branch `x = v`
//! and then the right branch `x != v` (for [`ValueOrder::Split`]: `x <= mid`
//! then `x > mid`). Branching is binary, as in Oz and Gecode.
//!
//! # Counting
//!
//! [`Stats::nodes`] counts every node of the tree: choice nodes, failed
//! leaves and solution leaves, the root included. So a puzzle that
//! propagation alone solves has 1 node, and `nodes = choices + failures +
//! solutions` for a search that ran to the end (Oz's Explorer counts the
//! same way: its zebra has 33 nodes = 16 + 16 + 1). The depth of the root is
//! 0; each decision adds 1.
//!
//! # Ties
//!
//! [`VarOrder::FirstFail`] takes the variable with the smallest domain of
//! size > 1, and among equals the one declared first. Declaration order is
//! the only tie-breaker anywhere, so the tree depends on the model alone.
//!
//! # State
//!
//! The search keeps its own storage: copies of the engine's state (domains
//! and propagator state, [`Engine::save`]'s words), one level a depth of
//! open choices, and a frame for each open choice, which grow to the
//! deepest path once and are then reused: the search loop itself allocates
//! nothing (a solution that is kept allocates its values). A choice copies
//! its state one level up for its left branch and keeps its own for its
//! right branch: one copy a choice. The engine propagates on the level of
//! the node being opened, and holds a copy of the last one when a step
//! ends.
//!
//! So a search's memory is bounded by the depth of its tree, not its size:
//! only the solutions a mode keeps ([`Mode::All`] keeps every one) and a
//! recording ([`Tree`](crate::Tree), [`Trace`](crate::Trace), each within
//! its budget) grow with it. [`Solver::solve_each`] and
//! [`Solver::solutions`] hand each solution out as it is found instead.

use std::fmt;
use std::ops::{ControlFlow, Index};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::buffer::make_room;
use crate::domain::Domain;
use crate::domain::ones;
use crate::engine::{Engine, Running};
use crate::ids::{ConstraintId, Tags, VarId};
use crate::model::{Model, Names};
use crate::observer::{Decision, DecisionOp, Node, NodeId, NodeKind, Observer, SearchStatus};

mod parallel;
mod probe;
mod restarts;
mod weights;

pub use restarts::Restarts;
use restarts::{Failure, Nogoods, Schedule};
use weights::Weights;

/// Which unfixed variable to branch on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VarOrder {
    /// The smallest domain of size > 1; ties to the earliest declared.
    #[default]
    FirstFail,
    /// The earliest declared unfixed variable.
    InputOrder,
    /// The largest domain; ties to the earliest declared.
    LargestDomain,
    /// The smallest domain size per conflict weight (dom/wdeg): a
    /// variable weighs the number of its constraints plus the failed
    /// leaves they caused so far in this search, so the search learns
    /// where the conflicts are. Ties to the earliest declared. Made for
    /// hard instances (large sudoku boards); on easy ones it costs more a
    /// node than first-fail and gives about the same tree.
    DomWdeg,
}

/// Which value to try first on the chosen variable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValueOrder {
    /// `x = min | x != min`.
    #[default]
    Min,
    /// `x = max | x != max`.
    Max,
    /// `x <= mid | x > mid` with `mid = (min + max) / 2`: the lower half first
    /// (seed 003's domain splitting).
    Split,
}

impl fmt::Display for VarOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VarOrder::FirstFail => "first-fail",
            VarOrder::InputOrder => "input-order",
            VarOrder::LargestDomain => "largest-domain",
            VarOrder::DomWdeg => "dom-wdeg",
        })
    }
}

impl fmt::Display for ValueOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValueOrder::Min => "min",
            ValueOrder::Max => "max",
            ValueOrder::Split => "split",
        })
    }
}

/// How many solutions to look for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Stop at the first solution.
    First,
    /// Find and keep every solution.
    #[default]
    All,
    /// Count every solution without keeping any.
    Count,
    /// Stop after `n` solutions, keeping them; `AtMost(2)` is the
    /// uniqueness check.
    AtMost(u64),
    /// Count every solution, keeping the first `n`: an exact count and a
    /// solution to show, without holding millions of solutions.
    CountKeeping(u64),
}

/// Search settings: branching and limits. The default is first-fail, min
/// value, no limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchOptions {
    /// Variable selection.
    pub var_order: VarOrder,
    /// Value selection.
    pub value_order: ValueOrder,
    /// Stop after this many nodes.
    pub node_limit: Option<u64>,
    /// Stop after this much time (checked every 256 nodes).
    pub time_limit: Option<Duration>,
    /// Reasoning from the last conflict (Lecoutre, Saïs, Tabary and Vidal,
    /// "Reasoning from last conflict(s) in constraint programming", 2009):
    /// once a decision `x = v` (or `x <= v`) fails, branch on `x` again as
    /// long as it is open, before asking `var_order`. The search then
    /// looks for the decision above that, together with `x`, caused the
    /// failure. Often a much smaller tree on hard instances with
    /// [`VarOrder::DomWdeg`]; off by default, as it changes the tree.
    pub last_conflict: bool,
    /// Restarts, each recording what the run before refuted as nogoods
    /// (see [`Restarts`]): the search goes back to the root after a number
    /// of failed leaves, keeping its conflict weights, and never searches
    /// the same part of the tree twice, so it stays complete and counts
    /// stay exact. For hard instances with [`VarOrder::DomWdeg`]; off by
    /// default. A [tree](crate::Tree) of a search that restarts has a root
    /// for each run.
    pub restarts: Restarts,
    /// Singleton probing at the root: before the first branch, every value
    /// of every open variable is tried, and those whose propagation fails
    /// are removed, until none is (the root is then singleton
    /// consistent). Probes are not nodes; their propagator runs count.
    /// For hard instances; off by default.
    pub probe: bool,
}

impl SearchOptions {
    /// Sets the variable selection.
    #[must_use]
    pub fn var_order(mut self, order: VarOrder) -> SearchOptions {
        self.var_order = order;
        self
    }

    /// Sets the value selection.
    #[must_use]
    pub fn value_order(mut self, order: ValueOrder) -> SearchOptions {
        self.value_order = order;
        self
    }

    /// Sets a node limit.
    #[must_use]
    pub fn node_limit(mut self, nodes: u64) -> SearchOptions {
        self.node_limit = Some(nodes);
        self
    }

    /// Sets a time limit.
    #[must_use]
    pub fn time_limit(mut self, limit: Duration) -> SearchOptions {
        self.time_limit = Some(limit);
        self
    }

    /// Turns reasoning from the last conflict on or off (see
    /// [`SearchOptions::last_conflict`](#structfield.last_conflict)).
    ///
    /// ```
    /// use bitfd::{Model, SearchOptions, Solver, Strength, VarOrder};
    ///
    /// let mut m = Model::new();
    /// let xs: Vec<_> = (0..6)
    ///     .map(|i| m.int_var(&format!("x{i}"), 1, 5))
    ///     .collect::<Result<_, _>>()?;
    /// m.all_different(&xs, Strength::Value)?; // six pigeons, five holes
    /// let options = SearchOptions::default()
    ///     .var_order(VarOrder::DomWdeg)
    ///     .last_conflict(true);
    /// assert_eq!(Solver::new(&m).count(&options).stats.solutions, 0);
    /// # Ok::<(), bitfd::ModelError>(())
    /// ```
    #[must_use]
    pub fn last_conflict(mut self, on: bool) -> SearchOptions {
        self.last_conflict = on;
        self
    }

    /// Sets the restarts (see
    /// [`SearchOptions::restarts`](#structfield.restarts)).
    ///
    /// ```
    /// use bitfd::{Model, Restarts, SearchOptions, Solver, Strength, VarOrder};
    ///
    /// // Six queens, one a row: 4 solutions (OEIS A000170).
    /// let mut m = Model::new();
    /// let rows: Vec<_> = (0..6)
    ///     .map(|i| m.int_var(&format!("row {i}"), 0, 5))
    ///     .collect::<Result<_, _>>()?;
    /// let up: Vec<i64> = (0..6).collect();
    /// let down: Vec<i64> = (0..6).map(|i| 5 - i).collect();
    /// m.all_different(&rows, Strength::Value)?;
    /// m.all_different_offsets(&rows, &up, Strength::Value)?;
    /// m.all_different_offsets(&rows, &down, Strength::Value)?;
    /// let options = SearchOptions::default()
    ///     .var_order(VarOrder::DomWdeg)
    ///     .restarts(Restarts::Geometric { first: 2 });
    /// let mut solver = Solver::new(&m);
    /// assert_eq!(solver.count(&options).stats.solutions, 4);
    /// assert!(solver.restarts() > 0);
    /// # Ok::<(), bitfd::ModelError>(())
    /// ```
    #[must_use]
    pub fn restarts(mut self, restarts: Restarts) -> SearchOptions {
        self.restarts = restarts;
        self
    }

    /// Turns singleton probing at the root on or off (see
    /// [`SearchOptions::probe`](#structfield.probe)).
    ///
    /// ```
    /// use bitfd::{Model, SearchOptions, Solver};
    ///
    /// // A triangle to colour with two colours: pairwise `!=` prunes
    /// // nothing until a vertex is coloured, so the search branches; each
    /// // probe fails, and the root with it.
    /// let mut m = Model::new();
    /// let x = m.int_var("x", 0, 1)?;
    /// let y = m.int_var("y", 0, 1)?;
    /// let z = m.int_var("z", 0, 1)?;
    /// m.not_equal(x, y)?;
    /// m.not_equal(y, z)?;
    /// m.not_equal(x, z)?;
    /// let plain = Solver::new(&m).all(&SearchOptions::default());
    /// let probed = Solver::new(&m).all(&SearchOptions::default().probe(true));
    /// assert_eq!(plain.stats.solutions, 0);
    /// assert!(plain.stats.nodes > 1);
    /// assert_eq!(probed.stats.solutions, 0);
    /// assert_eq!(probed.stats.nodes, 1);
    /// assert!(probed.root_failure.is_some());
    /// # Ok::<(), bitfd::ModelError>(())
    /// ```
    #[must_use]
    pub fn probe(mut self, on: bool) -> SearchOptions {
        self.probe = on;
        self
    }
}

/// Search statistics.
///
/// Node counting: every node of the tree counts, the root included: choice
/// nodes, failed leaves and solution leaves. A puzzle that propagation alone
/// solves has 1 node, and `nodes = choices + failures + solutions` for a
/// search that ran to the end (the Oz Explorer counts the same way: its
/// zebra has 33 nodes = 16 + 16 + 1). The root has depth 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Every node of the tree: choices + failures + solutions.
    pub nodes: u64,
    /// Choice nodes.
    pub choices: u64,
    /// Failed leaves.
    pub failures: u64,
    /// Solution leaves.
    pub solutions: u64,
    /// The depth of the deepest node (the root has depth 0).
    pub max_depth: u32,
    /// Propagator runs.
    pub propagations: u64,
}

/// A full assignment: one value per variable, readable by [`VarId`] or name.
/// Two solutions are equal when their values are.
#[derive(Clone)]
pub struct Solution {
    values: Box<[u8]>,
    /// The model's names and tags, shared by the solutions of one load.
    model: Arc<SolutionModel>,
}

/// What a [`Solution`] needs of its model: the names, to read values by
/// name, and the tags, to read them by handle.
#[derive(Debug)]
struct SolutionModel {
    names: Names,
    tags: Tags,
}

impl Solution {
    /// The values, indexed by [`VarId::index`].
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// The value of the variable called `name`, if there is one.
    pub fn value_of(&self, name: &str) -> Option<u8> {
        self.model.names.find(name).map(|i| self.values[i as usize])
    }

    /// The `(name, value)` pairs in declaration order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, u8)> + '_ {
        self.values
            .iter()
            .enumerate()
            .map(|(i, &v)| (self.model.names.get(i), v))
    }
}

impl PartialEq for Solution {
    fn eq(&self, other: &Solution) -> bool {
        self.values == other.values
    }
}

impl Eq for Solution {}

impl Index<VarId> for Solution {
    type Output = u8;

    /// The value of `x`.
    ///
    /// # Panics
    ///
    /// If `x` is a variable of another model.
    fn index(&self, x: VarId) -> &u8 {
        assert!(
            self.model.tags.owns_var(x, self.values.len()),
            "variable #{} belongs to another model",
            x.index()
        );
        &self.values[x.index()]
    }
}

impl fmt::Debug for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Why the search ended.
    pub status: SearchStatus,
    /// The solutions kept, in the order found (none in [`Mode::Count`], the
    /// first `n` in [`Mode::CountKeeping`]).
    pub solutions: Vec<Solution>,
    /// Statistics.
    pub stats: Stats,
    /// When the root itself failed: the constraint that found it (the
    /// puzzle has no solution, and this is the clue to blame).
    pub root_failure: Option<ConstraintId>,
}

/// A search's frame for one open choice: where to go right.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The choice node.
    node: NodeId,
    /// Its depth.
    depth: u32,
    /// The right branch.
    right: Branch,
}

/// The storage of restarts (the path, the nogoods, the schedule) and
/// probing (a scratch state). Boxed and made by the first search with
/// either on, so that a plain search neither lays it out nor drops it.
#[derive(Debug, Clone, Default)]
struct Extras {
    /// With [`SearchOptions::restarts`]: the decisions from the root to
    /// the node being opened (empty otherwise).
    path: Vec<Branch>,
    /// The nogoods recorded at the restarts.
    nogoods: Nogoods,
    /// Where the search is in its restart schedule.
    schedule: Schedule,
    /// A state for [`SearchOptions::probe`]'s probes.
    probes: Vec<u64>,
}

/// A decision with the values it keeps ([`Decision::keeps`]), worked out
/// once, where the decision is made. The variable is its index alone (the
/// model's tag makes it a [`VarId`] for an observer).
#[derive(Clone, Copy, Debug)]
struct Branch {
    var: u32,
    op: DecisionOp,
    value: u8,
    keep: Domain,
}

impl Branch {
    /// The other branch of the same choice: the opposite decision, which
    /// keeps just the values this one drops (each decision keeps one value
    /// or a range from 0 or to 63, and its opposite the rest).
    fn negate(self) -> Branch {
        Branch {
            op: self.op.negate(),
            keep: !self.keep,
            ..self
        }
    }

    /// The decision, on the variable `run` makes of the index.
    fn decision(self, run: &Running<'_>) -> Decision {
        Decision {
            var: run.var_at(self.var as usize),
            op: self.op,
            value: self.value,
        }
    }
}

/// What a node turned out to be once propagated ([`Solver::open`]).
enum Opened {
    /// A failed leaf: the constraint that found the conflict (`None` for
    /// a recorded nogood).
    Failed(Option<ConstraintId>),
    /// A solution leaf: every variable is fixed.
    Solution,
    /// A choice node, with its left branch.
    Choice(Branch),
}

/// The search depth a solver makes room for before its first search.
const FIRST_LEVELS: usize = 16;

/// What the search does next, kept between steps.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// Apply `decision` to the state in the solver's first level (the
    /// root's, or the parent's of a subtree a parallel count
    /// hands out), then propagate and classify the node it reaches. The
    /// search starts there, so the node has no parent in the tree.
    Visit {
        decision: Option<Branch>,
        depth: u32,
    },
    /// Take the right branch of the innermost open choice.
    Backtrack,
    /// Nothing is left.
    Done(SearchStatus),
}

/// A solver for one model: the engine plus the search's own storage,
/// reusable across searches.
///
/// ```
/// use bitfd::{Model, SearchOptions, Solver, Strength};
///
/// // Three people in three houses, all in different houses.
/// let mut m = Model::new();
/// let a = m.int_var("alice", 1, 3)?;
/// let b = m.int_var("bob", 1, 3)?;
/// let c = m.int_var("carol", 1, 3)?;
/// m.all_different(&[a, b, c], Strength::Domain)?;
/// m.equal_value(a, 2)?;
/// m.less(b, c)?;
///
/// let mut solver = Solver::new(&m);
/// let outcome = solver.all(&SearchOptions::default());
/// assert_eq!(outcome.solutions.len(), 1);
/// assert_eq!(outcome.solutions[0].value_of("carol"), Some(3));
/// assert_eq!(outcome.stats.nodes, 1); // propagation alone solved it
/// # Ok::<(), bitfd::ModelError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Solver {
    engine: Engine,
    /// The model's names and initial domains: the solver's own copy, taken
    /// by [`Solver::new`] and refilled in place by [`Solver::load`], since
    /// the model may be gone before the solutions are read. Not shared: a
    /// count, which hands out no solution, then touches no atomic count.
    names: Names,
    /// `names` and the model's tags, shared with the solutions handed out
    /// since the last load:
    /// made at the first of them, so only a search that keeps solutions
    /// pays for it.
    shared: Option<Arc<SolutionModel>>,
    /// The search's levels, [`Engine::state_len`] words each: one for each
    /// open choice (its fixpoint, kept for its right branch), then the
    /// node being opened. Grown to the deepest path, never shrunk.
    states: Vec<u64>,
    /// The open choices, innermost last: `states` holds `frames.len() + 1`
    /// levels in use.
    frames: Vec<Frame>,
    /// The conflict weights, for [`VarOrder::DomWdeg`].
    weights: Weights,
    /// The variable of the last failed left branch since the search
    /// started, for [`SearchOptions::last_conflict`].
    last_conflict: Option<u32>,
    /// The storage of restarts and probing, made by the first search with
    /// either on (see [`Extras`]).
    extras: Option<Box<Extras>>,
    next: Next,
    stats: Stats,
    started: Option<Instant>,
    options: SearchOptions,
    root_failure: Option<ConstraintId>,
}

impl Solver {
    /// Builds a solver for `model`.
    pub fn new(model: &Model) -> Solver {
        // The engine is loaded in place: a finished one is large to move.
        let mut solver = Solver {
            engine: Engine::unloaded(),
            names: Names::default(),
            shared: None,
            states: Vec::new(),
            frames: Vec::new(),
            weights: Weights::default(),
            last_conflict: None,
            extras: None,
            next: Next::Done(SearchStatus::Complete),
            stats: Stats::default(),
            started: None,
            options: SearchOptions::default(),
            root_failure: None,
        };
        solver.engine.load(model);
        // Filled where it lies, as a reload fills it.
        solver.names.clone_from(model.names());
        solver
    }

    /// Makes this the solver for `model`, reusing the storage it has (see
    /// [`Engine::load`]).
    pub fn load(&mut self, model: &Model) {
        self.engine.load(model);
        // Into the storage of the last model's names, which solutions still
        // holding them do not share (they hold `shared`, let go here).
        self.names.clone_from(model.names());
        self.shared = None;
        self.weights.unload();
    }

    /// The engine, for reading domains or switching constraints on and off.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, mutably: [`Engine::set_enabled`] takes effect from the
    /// next search.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Searches in the given mode.
    pub fn solve(&mut self, options: &SearchOptions, mode: Mode) -> Outcome {
        self.solve_observed(options, mode, &mut ())
    }

    /// Searches in the given mode, reporting to `observer`.
    pub fn solve_observed<O: Observer>(
        &mut self,
        options: &SearchOptions,
        mode: Mode,
        observer: &mut O,
    ) -> Outcome {
        let mut solutions = Vec::new();
        let mut outcome = self.solve_each(options, mode, observer, |s| {
            solutions.push(s);
            ControlFlow::Continue(())
        });
        outcome.solutions = solutions;
        outcome
    }

    /// Searches in the given mode, reporting to `observer`, and hands each
    /// solution the mode keeps to `each` as soon as it is found, instead of
    /// keeping it: the returned [`Outcome`] holds no solution. So memory
    /// stays bounded by the depth of the tree however many solutions there
    /// are, and a caller can print each one at once.
    ///
    /// `each` returning [`ControlFlow::Break`] ends the search there, with
    /// [`SearchStatus::SolutionLimit`], as if the mode's solution count had
    /// been reached (the observer hears the same end).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use bitfd::{Mode, Model, SearchOptions, Solver};
    ///
    /// let mut m = Model::new();
    /// let x = m.int_var("x", 0, 9)?;
    /// let y = m.int_var("y", 0, 9)?;
    /// // Each solution is seen once and let go: nothing accumulates.
    /// let mut sum = 0u64;
    /// let options = SearchOptions::default();
    /// let outcome = Solver::new(&m).solve_each(&options, Mode::All, &mut (), |s| {
    ///     sum += u64::from(s[x] + s[y]);
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!(outcome.stats.solutions, 100);
    /// assert_eq!(sum, 2 * 10 * 45); // each value of x and of y ten times
    /// assert!(outcome.solutions.is_empty());
    /// # Ok::<(), bitfd::ModelError>(())
    /// ```
    pub fn solve_each<O: Observer>(
        &mut self,
        options: &SearchOptions,
        mode: Mode,
        observer: &mut O,
        mut each: impl FnMut(Solution) -> ControlFlow<()>,
    ) -> Outcome {
        self.start(options);
        // How many solutions to hand out, and after how many to stop.
        let (keep, limit) = match mode {
            Mode::First => (1, Some(1)),
            Mode::All => (u64::MAX, None),
            Mode::Count => (0, None),
            Mode::AtMost(n) => (n, Some(n)),
            Mode::CountKeeping(n) => (n, None),
        };
        let mut handed = 0u64;
        let status = loop {
            if limit.is_some_and(|n| self.stats.solutions >= n) {
                break SearchStatus::SolutionLimit;
            }
            // Once no more solutions are handed out and none ends the
            // search (a count), a step goes on past them: ending a step
            // costs more than a node of a small search.
            let through = limit.is_none() && handed >= keep;
            match self.step(observer, through) {
                Ok(()) => {
                    if handed < keep {
                        handed += 1;
                        if each(self.current_solution()).is_break() {
                            break SearchStatus::SolutionLimit;
                        }
                    }
                }
                Err(status) => break status,
            }
        };
        observer.finished(status);
        Outcome {
            status,
            solutions: Vec::new(),
            stats: self.stats,
            root_failure: self.root_failure,
        }
    }

    /// The first solution, if any.
    pub fn first(&mut self, options: &SearchOptions) -> Outcome {
        self.solve(options, Mode::First)
    }

    /// Every solution.
    pub fn all(&mut self, options: &SearchOptions) -> Outcome {
        self.solve(options, Mode::All)
    }

    /// Counts the solutions without keeping them (`outcome.stats.solutions`).
    pub fn count(&mut self, options: &SearchOptions) -> Outcome {
        self.solve(options, Mode::Count)
    }

    /// The solutions, one at a time, as the search finds them. The
    /// iterator holds nothing but the solver: each solution is made when it
    /// is found and belongs to the caller, so iterating through millions
    /// keeps no more memory than the search's depth needs.
    ///
    /// ```
    /// use bitfd::{Model, SearchOptions, Solver};
    ///
    /// let mut m = Model::new();
    /// let x = m.int_var("x", 0, 9)?;
    /// let mut solver = Solver::new(&m);
    /// let odd: Vec<u8> = solver
    ///     .solutions(&SearchOptions::default())
    ///     .map(|s| s[x])
    ///     .filter(|v| v % 2 == 1)
    ///     .take(2)
    ///     .collect();
    /// assert_eq!(odd, vec![1, 3]);
    /// # Ok::<(), bitfd::ModelError>(())
    /// ```
    pub fn solutions(&mut self, options: &SearchOptions) -> Solutions<'_> {
        self.start(options);
        Solutions { solver: self }
    }

    /// The statistics of the current or last search.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Starts a new search: the root's state is the first level, the
    /// propagators are queued again and the counters cleared.
    fn start(&mut self, options: &SearchOptions) {
        self.engine.reset();
        self.enter(None);
        self.stats = Stats::default();
        self.root_failure = None;
        self.options = *options;
        self.last_conflict = None;
        if options.var_order == VarOrder::DomWdeg {
            self.weights.start(&self.engine);
        }
        // Made for a search that uses them; kept by one that does not (for
        // the next that does), and cleared.
        let extras = if options.has_more() {
            Some(&mut **self.extras.get_or_insert_default())
        } else {
            self.extras.as_deref_mut()
        };
        if let Some(extras) = extras {
            // Only a search that restarts lays out the nogoods' storage.
            if options.restarts.is_on() {
                extras.path.clear();
                extras.nogoods.start(self.engine.len());
                extras.schedule = Schedule::start(options.restarts);
            } else {
                extras.nogoods.forget();
                extras.schedule = Schedule::default();
            }
        }
        self.started = options.time_limit.map(|_| Instant::now());
        self.next = Next::Visit {
            decision: None,
            depth: 0,
        };
    }

    /// Makes the engine's current state (with `parent`, the state it came
    /// from, for a subtree) the first level, with no choice open.
    fn enter(&mut self, parent: Option<&[u64]>) {
        let width = self.engine.state_len();
        // Room for the first levels at once, not grown level by level.
        make_room(&mut self.frames, FIRST_LEVELS);
        make_room(&mut self.states, FIRST_LEVELS * width);
        self.states
            .extend_from_slice(parent.unwrap_or_else(|| self.engine.current_state()));
    }

    /// The solution the engine holds now (every domain fixed).
    fn current_solution(&mut self) -> Solution {
        let values = self
            .engine
            .domains()
            .map(|d| d.min().unwrap_or(0))
            .collect();
        Solution {
            values,
            model: match &self.shared {
                Some(model) => Arc::clone(model),
                None => self.share_names(),
            },
        }
    }

    /// The names, shared from now on with the solutions handed out (see
    /// `shared`): the first solution's since the last load. Out of line:
    /// the copy is made once a load, and the solutions after the first
    /// only take a reference.
    #[cold]
    #[inline(never)]
    fn share_names(&mut self) -> Arc<SolutionModel> {
        let model = SolutionModel {
            names: self.names.clone(),
            tags: self.engine.tags().clone(),
        };
        Arc::clone(self.shared.insert(Arc::new(model)))
    }

    /// Runs the search until the next solution (`Ok`, the engine holds it)
    /// or the end (`Err` with the reason); with `through`, on past every
    /// solution (counted and reported as ever) to the end.
    ///
    /// The state of the node being opened is the level after those of the
    /// open choices (the decision to apply is yet to be applied to it),
    /// each open choice's fixpoint the level of its frame: a choice copies
    /// its state one level up for its left branch and leaves its own to its
    /// right branch, which so needs no copy. Every step leaves the last
    /// node's state in the engine too.
    fn step<O: Observer>(&mut self, observer: &mut O, through: bool) -> Result<(), SearchStatus> {
        // Where the search is, kept in locals while it runs (in `self.next`
        // only between steps), so that going from node to node is a jump.
        let next = self.next;
        if let Next::Done(status) = next {
            return Err(status);
        }
        let width = self.engine.state_len();
        let propagations_before = self.engine.propagations();
        let (limited, started) = (self.options.is_limited(), self.started);
        let Solver {
            engine,
            states,
            frames,
            stats,
            options,
            root_failure,
            weights,
            last_conflict,
            extras,
            ..
        } = self;
        let (current, run) = engine.running();
        let more = options.has_more();
        let restarting = more && options.restarts.is_on();
        let mut opener = Opener {
            run,
            stats,
            root_failure,
            options,
            weights,
            last_conflict,
            extras: extras.as_deref_mut(),
            more,
        };
        // Where the level of the node being opened starts.
        let mut at = frames.len() * width;
        // The node to open next: its parent, the decision that leads to it
        // from the state at level `at`, its depth; or, with `backtrack`, the
        // right branch of the innermost open choice.
        let (mut parent, mut decision, mut depth, mut backtrack) = match next {
            Next::Visit { decision, depth } => (None, decision, depth, false),
            _ => (None, None, 0, true),
        };
        let result = loop {
            if backtrack {
                // The innermost choice's own state, untouched by its left
                // subtree.
                let Some(frame) = frames.pop() else {
                    break Err(SearchStatus::Complete);
                };
                at -= width;
                (parent, decision, depth) = (Some(frame.node), Some(frame.right), frame.depth + 1);
                if restarting && opener.restart_due(&frame, &states[..width]) {
                    frames.clear();
                    at = 0;
                    (parent, decision, depth) = (None, None, 0);
                }
            }
            let state = &mut states[at..at + width];
            let limit = limited
                .then(|| limit_reached(opener.stats.nodes, opener.options, started))
                .flatten();
            if let Some(status) = limit {
                // The engine holds the node cut off, unpropagated.
                if let Some(branch) = decision {
                    let var = opener.run.var_at(branch.var as usize);
                    opener.run.restrict(state, var, branch.keep);
                }
                break Err(status);
            }
            let id = opener.stats.nodes;
            let made = decision.map(|branch| branch.decision(&opener.run));
            let node = |kind| Node {
                id,
                parent,
                depth,
                decision: made,
                kind,
            };
            let branch = match opener.open(state, depth, decision, observer) {
                Opened::Failed(by) => {
                    observer.node(&node(NodeKind::Failed { by }));
                    backtrack = true;
                    continue;
                }
                Opened::Solution => {
                    observer.node(&node(NodeKind::Solution {
                        index: opener.stats.solutions,
                    }));
                    if through {
                        backtrack = true;
                        continue;
                    }
                    break Ok(());
                }
                Opened::Choice(branch) => branch,
            };
            observer.node(&node(NodeKind::Choice {
                branch: branch.decision(&opener.run),
            }));
            // The left branch works on a copy one level up; this state
            // stays for the right one.
            frames.push(Frame {
                node: id,
                depth,
                right: branch.negate(),
            });
            if restarting {
                opener.follow(branch);
            }
            let up = at + width;
            if states.len() >= up + width {
                states.copy_within(at..up, up);
            } else {
                // The first visit this deep (the levels may end in a part
                // of one of another model's width, loaded before): grown by
                // the copy, not zeroed first.
                states.truncate(up);
                states.extend_from_within(at..up);
            }
            at = up;
            (parent, decision, depth) = (Some(id), Some(branch), depth + 1);
            backtrack = false;
        };
        // The engine holds the last node opened (or cut off).
        current.copy_from_slice(&states[at..at + width]);
        // A step ends at a solution, with right branches still to take, or
        // at the end.
        self.next = match result {
            Ok(()) => Next::Backtrack,
            Err(status) => Next::Done(status),
        };
        self.stats.propagations += self.engine.propagations() - propagations_before;
        result
    }

    /// [`Opener::open`] on this solver's engine (its own state) and
    /// counters.
    fn open<O: Observer>(
        &mut self,
        depth: u32,
        decision: Option<Branch>,
        observer: &mut O,
    ) -> Opened {
        let (state, run) = self.engine.running();
        let mut opener = Opener {
            run,
            stats: &mut self.stats,
            root_failure: &mut self.root_failure,
            options: &self.options,
            weights: &mut self.weights,
            last_conflict: &mut self.last_conflict,
            extras: self.extras.as_deref_mut(),
            more: self.options.has_more(),
        };
        opener.open(state, depth, decision, observer)
    }

    /// Whether a limit says to stop before the next node.
    fn limit_reached(&self) -> Option<SearchStatus> {
        limit_reached(self.stats.nodes, &self.options, self.started)
    }
}

impl SearchOptions {
    /// Whether a node or time limit is set.
    fn is_limited(&self) -> bool {
        self.node_limit.is_some() || self.time_limit.is_some()
    }

    /// Whether a node has more to do than propagate and branch: restarts
    /// (the nogoods) or probing are on.
    fn has_more(&self) -> bool {
        self.restarts.is_on() || self.probe
    }
}

/// Whether a limit of `options` says to stop before the next node, once
/// `nodes` nodes are open; `started` is when the search started, if it has
/// a time limit.
fn limit_reached(
    nodes: u64,
    options: &SearchOptions,
    started: Option<Instant>,
) -> Option<SearchStatus> {
    if options.node_limit.is_some_and(|limit| nodes >= limit) {
        return Some(SearchStatus::NodeLimit);
    }
    if let (Some(limit), Some(started)) = (options.time_limit, started) {
        // Reading the clock costs more than a node of a small puzzle.
        if nodes % 256 == 0 && started.elapsed() >= limit {
            return Some(SearchStatus::TimeLimit);
        }
    }
    None
}

/// What opening a node touches, borrowed from a [`Solver`] for a run of
/// nodes: the engine's running parts, the counters and the options.
struct Opener<'s> {
    run: Running<'s>,
    stats: &'s mut Stats,
    root_failure: &'s mut Option<ConstraintId>,
    options: &'s SearchOptions,
    weights: &'s mut Weights,
    last_conflict: &'s mut Option<u32>,
    /// The solver's [`Extras`]: there whenever restarts or probing are on.
    extras: Option<&'s mut Extras>,
    /// Whether restarts or probing are on: a node then has more to do
    /// after its propagation.
    more: bool,
}

impl Opener<'_> {
    /// Applies `decision` to `state`, the parent's state (or the root's,
    /// without a decision), propagates the node it reaches, at `depth`, and
    /// counts it: every node, its kind, the deepest depth, and the root's
    /// failure (the first node of a search is its root).
    #[inline(always)]
    fn open<O: Observer>(
        &mut self,
        state: &mut [u64],
        depth: u32,
        decision: Option<Branch>,
        observer: &mut O,
    ) -> Opened {
        let id = self.stats.nodes;
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(depth);
        let branch = decision;
        let decision = decision.map(|b| (self.run.var_at(b.var as usize), b.keep));
        // One test a node when neither restarts nor probing is on.
        let more = self.more;
        if more {
            self.before_node(state);
        }
        let failure = match self.run.propagate_after(state, decision, observer) {
            Err(by) => Some(Failure::Constraint(by)),
            Ok(()) if more => self.after_propagation(state, id, observer).err(),
            Ok(()) => None,
        };
        if let Some(failure) = failure {
            if self.options.last_conflict {
                // A failed left branch (`=` or `<=`) names the variable.
                if let Some(b) = branch.filter(|b| matches!(b.op, DecisionOp::Eq | DecisionOp::Le))
                {
                    *self.last_conflict = Some(b.var);
                }
            }
            self.stats.failures += 1;
            let by = match failure {
                Failure::Constraint(by) => Some(by),
                Failure::Nogood(_) => None,
            };
            if id == 0 {
                *self.root_failure = by;
            }
            if self.options.var_order == VarOrder::DomWdeg {
                match failure {
                    Failure::Constraint(by) => self.weights.failed(by),
                    // (Only the nogoods, kept in the extras, fail so.)
                    Failure::Nogood(c) => {
                        if let Some(extras) = &self.extras {
                            self.weights.failed_vars(extras.nogoods.vars_of(c));
                        }
                    }
                }
            }
            return Opened::Failed(by);
        }
        match self.branch(state) {
            None => {
                self.stats.solutions += 1;
                Opened::Solution
            }
            Some(branch) => {
                self.stats.choices += 1;
                Opened::Choice(branch)
            }
        }
    }

    /// What follows a node's propagation with restarts or probing on: the
    /// nogoods' propagation, and the probes at the search's root (node
    /// `id` 0; not a later run's).
    #[inline(never)]
    fn after_propagation<O: Observer>(
        &mut self,
        state: &mut [u64],
        id: u64,
        observer: &mut O,
    ) -> Result<(), Failure> {
        let Some(extras) = self.extras.as_deref_mut() else {
            return Ok(());
        };
        if extras.nogoods.is_active() {
            extras.nogoods.propagate(&mut self.run, state, observer)?;
        }
        if self.options.probe && id == 0 {
            let mut probes = std::mem::take(&mut extras.probes);
            let probed = self.probe(state, &mut probes, observer);
            if let Some(extras) = self.extras.as_deref_mut() {
                extras.probes = probes;
            }
            probed?;
        }
        Ok(())
    }

    /// Before a node's propagation, with restarts or probing on: the
    /// nogoods note the parent's domains.
    #[inline(never)]
    fn before_node(&mut self, state: &mut [u64]) {
        if let Some(extras) = self.extras.as_deref_mut() {
            if extras.nogoods.is_active() {
                extras.nogoods.before_node(&mut self.run, state);
            }
        }
    }

    /// With restarts on, the left branch `branch` taken: the path follows.
    #[inline(never)]
    fn follow(&mut self, branch: Branch) {
        if let Some(extras) = self.extras.as_deref_mut() {
            extras.path.push(branch);
        }
    }

    /// On backtracking to the right branch of `frame`'s choice, with
    /// restarts on: the path follows, and when the schedule says a restart
    /// is due, what this run refuted is recorded as nogoods against the
    /// root's state `root` (from which the next run starts); returns
    /// whether the search restarts.
    #[inline(never)]
    fn restart_due(&mut self, frame: &Frame, root: &[u64]) -> bool {
        let Some(extras) = self.extras.as_deref_mut() else {
            return false;
        };
        extras.path.truncate(frame.depth as usize);
        extras.path.push(frame.right);
        let failures = self.stats.failures;
        if extras.schedule.is_due(failures)
            && extras
                .nogoods
                .record(&extras.path, self.run.domain_bits(root))
        {
            extras.schedule.restarted(self.options.restarts, failures);
            extras.path.clear();
            return true;
        }
        false
    }

    /// The left branch at the node whose state is `state`, or `None` when
    /// every variable is fixed.
    #[inline(always)]
    fn branch(&self, state: &[u64]) -> Option<Branch> {
        // Set only when the option is on (and cleared at every start).
        let (var, d) = select_var(
            &self.run,
            state,
            self.options.var_order,
            self.weights,
            *self.last_conflict,
        )?;
        left_branch(var, d, self.options.value_order)
    }
}

/// The left branch on `var`, whose domain is `d` (two values or more), in
/// value order `order`. The values it keeps are worked out from the
/// domain's bits, as [`Decision::keeps`] would from the decision.
#[inline(always)]
fn left_branch(var: VarId, d: Domain, order: ValueOrder) -> Option<Branch> {
    let bits = d.bits();
    let (op, value, keep) = match order {
        // The lowest and the highest value's bit.
        ValueOrder::Min => (DecisionOp::Eq, d.min()?, bits & bits.wrapping_neg()),
        ValueOrder::Max => {
            let hi = d.max()?;
            (DecisionOp::Eq, hi, 1 << hi)
        }
        ValueOrder::Split => {
            let (lo, hi) = (d.min()?, d.max()?);
            let mid = lo + (hi - lo) / 2;
            // Values 0..=mid; mid is below hi, so below 63.
            (DecisionOp::Le, mid, u64::MAX >> (63 - mid))
        }
    };
    Some(Branch {
        var: var.index() as u32,
        op,
        value,
        keep: Domain::from_bits(keep),
    })
}

/// The variable to branch on and its domain, or `None` when all are fixed:
/// `last_conflict` while it is open, else the one `order` picks.
// Inlined into the search loop, with `first_fail`: it runs at every node.
#[inline(always)]
fn select_var(
    engine: &Running<'_>,
    state: &[u64],
    order: VarOrder,
    weights: &Weights,
    last_conflict: Option<u32>,
) -> Option<(VarId, Domain)> {
    let doms = engine.domain_bits(state);
    if let Some(x) = last_conflict.map(|x| x as usize) {
        if !Domain::from_bits(doms[x]).is_fixed() {
            return Some((engine.var_at(x), Domain::from_bits(doms[x])));
        }
    }
    let chosen = match order {
        VarOrder::DomWdeg => weights::smallest_per_weight(doms, weights.of_vars()),
        VarOrder::FirstFail => first_fail(doms, engine.fixed_bits(state)),
        // Every domain is non-empty at a fixpoint: not fixed is two or more.
        VarOrder::InputOrder => doms.iter().position(|&d| !Domain::from_bits(d).is_fixed()),
        VarOrder::LargestDomain => {
            let mut best: Option<(usize, u32)> = None;
            for (i, &d) in doms.iter().enumerate() {
                let size = d.count_ones();
                // Strict comparison keeps the earliest of equal candidates.
                if size > 1 && best.is_none_or(|(_, s)| size > s) {
                    best = Some((i, size));
                }
            }
            best.map(|(i, _)| i)
        }
    };
    chosen.map(|i| (engine.var_at(i), Domain::from_bits(doms[i])))
}

/// The index of the smallest domain of two values or more, the earliest of
/// equals; `None` when every domain is fixed.
///
/// A domain's size is a population count, which the default x86-64 target
/// computes in a dozen instructions; most domains only need comparing with
/// the best size so far, which is small, so clearing that many lowest bits
/// answers sooner. A domain that beats a
/// best of four has three values, and nothing but two values (which ends
/// the scan) beats three: neither needs a count.
///
/// Only the variables `fixed` (the engine's fixed-variable bitset, exact at
/// a fixpoint) leaves open are looked at: deep in a search most are fixed.
/// Its bits past the last variable are clear, and it ends with a spare
/// zero word (see `propagators::fixed_words`), so the first open bit past
/// the variables always comes and ends the scan: no mask for the last word.
#[inline(always)]
fn first_fail(doms: &[u64], fixed: &[u64]) -> Option<usize> {
    let mut best: Option<(usize, u32)> = None;
    for (w, &fixed) in fixed.iter().enumerate() {
        for k in ones(!fixed) {
            let i = 64 * w + k;
            let Some(&d) = doms.get(i) else {
                return best.map(|(i, _)| i);
            };
            // `d & (d - 1)` drops the lowest value: nothing left means fixed
            // (the bitset says it is not, but a wrong skip costs nothing).
            let rest = d & d.wrapping_sub(1);
            if rest == 0 {
                continue;
            }
            // Exactly two values: nothing smaller is open, so nothing beats
            // it. (`rest` shifted past its trailing zeros is 1: not written
            // as `rest & (rest - 1) == 0`, which LLVM turns into a
            // population count.)
            if rest.wrapping_shr(rest.trailing_zeros()) == 1 {
                return Some(i);
            }
            // `d` has three values or more: its size if it beats the best.
            let smaller = match best {
                None => Some(d.count_ones()),
                // Three values: only two, returned above, would beat it.
                Some((_, size)) if size <= 3 => None,
                // Four: three values beat it, which dropping the two lowest
                // of `d` leaves one.
                Some((_, 4)) => {
                    let top = rest & rest.wrapping_sub(1);
                    (top.wrapping_shr(top.trailing_zeros()) == 1).then_some(3)
                }
                Some((_, size)) if size <= 5 => fewer_values_than(d, size).then(|| d.count_ones()),
                Some((_, size)) => Some(d.count_ones()).filter(|&n| n < size),
            };
            if let Some(size) = smaller {
                best = Some((i, size));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// Whether `d` holds fewer than `k` values (`k >= 1`): dropping its `k - 1`
/// lowest values leaves nothing.
#[inline]
fn fewer_values_than(d: u64, k: u32) -> bool {
    let mut rest = d;
    for _ in 1..k {
        rest &= rest.wrapping_sub(1);
    }
    rest == 0
}

/// The solutions of a search, in the order found; see [`Solver::solutions`].
#[derive(Debug)]
pub struct Solutions<'s> {
    solver: &'s mut Solver,
}

impl Solutions<'_> {
    /// The statistics so far.
    pub fn stats(&self) -> Stats {
        self.solver.stats
    }
}

impl Iterator for Solutions<'_> {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        match self.solver.step(&mut (), false) {
            Ok(()) => Some(self.solver.current_solution()),
            Err(_) => None,
        }
    }
}

/// A shorthand: builds a solver for `model` and searches in `mode`.
///
/// ```
/// use bitfd::{Mode, Model, SearchOptions, solve};
///
/// let mut m = Model::new();
/// let x = m.int_var("x", 1, 4)?;
/// let y = m.int_var("y", 1, 4)?;
/// m.distance(x, y, 3)?;
/// let outcome = solve(&m, &SearchOptions::default(), Mode::Count);
/// assert_eq!(outcome.stats.solutions, 2); // (1,4) and (4,1)
/// # Ok::<(), bitfd::ModelError>(())
/// ```
pub fn solve(model: &Model, options: &SearchOptions, mode: Mode) -> Outcome {
    Solver::new(model).solve(options, mode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Strength;

    fn permutations_of_three() -> Model {
        let mut m = Model::new();
        let vars: Vec<VarId> = ["a", "b", "c"]
            .iter()
            .map(|n| m.int_var(n, 1, 3).expect("fresh"))
            .collect();
        m.all_different(&vars, Strength::Domain).expect("valid");
        m
    }

    #[test]
    fn count_keeping_counts_everything_and_keeps_the_first() {
        let m = permutations_of_three();
        let all = Solver::new(&m).all(&SearchOptions::default());
        let kept = Solver::new(&m).solve(&SearchOptions::default(), Mode::CountKeeping(1));
        assert_eq!(kept.stats.solutions, 6, "3! permutations");
        assert_eq!(kept.status, SearchStatus::Complete);
        assert_eq!(kept.solutions, all.solutions[..1].to_vec());
        assert_eq!(kept.stats, all.stats);
    }

    #[test]
    fn a_search_that_goes_through_solutions_visits_what_one_that_stops_at_each_does() {
        // A count (which goes through every solution in one step) and a
        // count keeping some (which stops at those it keeps, then goes
        // through) against keeping every solution: the same nodes, in the
        // same order, and the same statistics, for every solution count.
        let mut m = Model::new();
        let vars: Vec<VarId> = ["a", "b", "c", "d"]
            .iter()
            .map(|n| m.int_var(n, 1, 4).expect("fresh"))
            .collect();
        m.all_different(&vars, Strength::Value).expect("valid");
        m.distance(vars[0], vars[1], 1).expect("valid");
        let options = SearchOptions::default();
        let (all_tree, all) = crate::Tree::record(&m, &options, Mode::All);
        assert!(all.stats.solutions > 2, "several solutions");
        for mode in [Mode::Count, Mode::CountKeeping(1), Mode::CountKeeping(2)] {
            let (tree, outcome) = crate::Tree::record(&m, &options, mode);
            assert_eq!(tree.nodes(), all_tree.nodes(), "{mode:?}");
            assert_eq!(outcome.stats, all.stats, "{mode:?}");
            assert_eq!(outcome.status, SearchStatus::Complete);
        }
        let mut solver = Solver::new(&m);
        let stepped: Vec<Solution> = solver.solutions(&options).collect();
        assert_eq!(stepped, all.solutions);
        assert_eq!(solver.stats(), all.stats);
    }

    #[test]
    fn solve_each_hands_out_what_solve_keeps_and_stops_when_told() {
        // Every mode: the solutions handed out are those `solve` keeps, in
        // the same order, with the same statistics and status, and the
        // outcome keeps none of them.
        let mut m = Model::new();
        let vars: Vec<VarId> = ["a", "b", "c", "d"]
            .iter()
            .map(|n| m.int_var(n, 1, 4).expect("fresh"))
            .collect();
        m.all_different(&vars, Strength::Value).expect("valid");
        let options = SearchOptions::default();
        for mode in [
            Mode::First,
            Mode::All,
            Mode::Count,
            Mode::AtMost(5),
            Mode::CountKeeping(3),
        ] {
            let kept = Solver::new(&m).solve(&options, mode);
            let mut handed = Vec::new();
            let outcome = Solver::new(&m).solve_each(&options, mode, &mut (), |s| {
                handed.push(s);
                ControlFlow::Continue(())
            });
            assert_eq!(handed, kept.solutions, "{mode:?}");
            assert!(outcome.solutions.is_empty());
            assert_eq!(outcome.stats, kept.stats, "{mode:?}");
            assert_eq!(outcome.status, kept.status, "{mode:?}");
        }
        // Told to stop at the third: the search ends there, as `AtMost(3)`
        // would, and an observer hears the same end.
        let mut seen = 0;
        let mut tree = crate::Tree::new(&m, &options);
        let stopped = Solver::new(&m).solve_each(&options, Mode::All, &mut tree, |_| {
            seen += 1;
            if seen == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let (at_most, outcome) = crate::Tree::record(&m, &options, Mode::AtMost(3));
        assert_eq!(seen, 3);
        assert_eq!(stopped.status, SearchStatus::SolutionLimit);
        assert_eq!(stopped.stats, outcome.stats);
        assert_eq!(tree.to_string(), at_most.to_string());
    }

    #[test]
    fn first_fail_takes_the_earliest_smallest_open_domain() {
        let d = |values: &[u8]| values.iter().fold(0u64, |d, &v| d | 1 << v);
        // Against a plain scan with population counts, on many shapes.
        let cases: Vec<Vec<u64>> = vec![
            vec![d(&[1]), d(&[1, 2, 3]), d(&[4, 5, 6]), d(&[0, 63, 7, 8])],
            vec![d(&[1, 2, 3, 4, 5]), d(&[0, 63, 9, 10]), d(&[2, 3, 4])],
            vec![d(&[5]), d(&[6])],
            vec![
                d(&[1, 2, 3, 4, 5, 6]),
                d(&[1, 2, 3, 4, 5]),
                d(&[0, 1, 2, 3, 4]),
            ],
            vec![d(&[1, 2, 3]), d(&[62, 63]), d(&[1, 2])],
            vec![],
            // Past one bitset word: the smallest open domains sit at 100
            // and 129, behind fixed and larger ones.
            (0..130)
                .map(|i| match i {
                    100 | 129 => d(&[7, 8, 9]),
                    _ if i % 3 == 0 => d(&[5]),
                    _ => d(&[1, 2, 3, 4]),
                })
                .collect(),
        ];
        // And random ones: 1 to 130 domains of 1 to 12 values (sizes tie
        // often), over all 64 values.
        let mut rng = crate::check::SplitMix64::new(23);
        let random = (0..3_000).map(|_| {
            let n = 1 + rng.below(130);
            (0..n)
                .map(|_| (0..1 + rng.below(12)).fold(0u64, |d, _| d | 1 << rng.below(64)))
                .collect::<Vec<u64>>()
        });
        for doms in cases.into_iter().chain(random) {
            let expected = doms
                .iter()
                .enumerate()
                .filter(|(_, d)| d.count_ones() > 1)
                .min_by_key(|&(i, d)| (d.count_ones(), i))
                .map(|(i, _)| i);
            let mut fixed = vec![0u64; crate::propagator::fixed_words(doms.len())];
            crate::propagator::fixed_bits(&doms, &mut fixed);
            assert_eq!(first_fail(&doms, &fixed), expected, "{doms:?}");
        }
    }

    #[test]
    fn a_branch_keeps_what_its_decision_keeps_and_its_negation_the_rest() {
        // Random domains of two values or more, every value order: the
        // values worked out from the bits are the decision's own.
        let mut rng = crate::check::SplitMix64::new(41);
        let var = VarId::new(0, 3);
        for round in 0..20_000 {
            let mut d = (0..1 + rng.below(6)).fold(0u64, |d, _| d | 1 << rng.below(64));
            // Values 0 and 63 often: the ends of the ranges.
            d |= match round % 4 {
                0 => 1,
                1 => 1 << 63,
                _ => 1 << rng.below(64),
            };
            if d.count_ones() < 2 {
                continue;
            }
            let d = Domain::from_bits(d);
            for order in [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split] {
                let branch = left_branch(var, d, order).expect("not empty");
                let right = branch.negate();
                let decision = |b: Branch| Decision {
                    var: VarId::new(0, b.var),
                    op: b.op,
                    value: b.value,
                };
                assert_eq!(branch.var, 3);
                assert_eq!(branch.keep, decision(branch).keeps(), "{d} {order}");
                assert_eq!(right.keep, decision(right).keeps(), "{d} {order}");
                assert_eq!(decision(right), decision(branch).negate());
                assert!((d & branch.keep) != Domain::EMPTY && (d & right.keep) != Domain::EMPTY);
            }
        }
    }

    #[test]
    fn a_reloaded_solver_searches_as_a_new_one_whatever_the_widths_before() {
        // N-queens of growing and shrinking sizes in one solver: its saved
        // states were laid out for the width of the model before (a part of
        // a level may be left over), yet every search gives a new solver's
        // statistics and solutions, in each order.
        let queens = |n| parallel::tests::queens(n).0;
        let mut solver = Solver::new(&queens(9));
        for n in [6, 4, 9, 5, 8, 1, 7, 3, 6] {
            let m = queens(n);
            solver.load(&m);
            for var_order in [VarOrder::FirstFail, VarOrder::InputOrder] {
                for value_order in [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split] {
                    let options = SearchOptions::default()
                        .var_order(var_order)
                        .value_order(value_order);
                    let reused = solver.all(&options);
                    let fresh = Solver::new(&m).all(&options);
                    assert_eq!(reused.stats, fresh.stats, "{n} {var_order} {value_order}");
                    assert_eq!(reused.solutions, fresh.solutions, "{n}");
                }
            }
        }
    }

    #[test]
    fn node_limit_cuts_the_search_short() {
        let m = permutations_of_three();
        let outcome = Solver::new(&m).solve(&SearchOptions::default().node_limit(3), Mode::All);
        assert_eq!(outcome.status, SearchStatus::NodeLimit);
        assert!(outcome.status.is_cut_short());
        assert_eq!(outcome.stats.nodes, 3);
    }

    #[test]
    fn a_zero_time_limit_ends_the_search_cleanly() {
        let m = permutations_of_three();
        let options = SearchOptions::default().time_limit(Duration::ZERO);
        let outcome = Solver::new(&m).solve(&options, Mode::All);
        assert_eq!(outcome.status, SearchStatus::TimeLimit);
        assert_eq!(outcome.stats.nodes, 0);
    }

    #[test]
    fn learning_orders_find_what_first_fail_finds_and_the_same_tree_every_time() {
        // N-queens, counts from OEIS A000170: dom/wdeg, and reasoning from
        // the last conflict with it and with first-fail; and restarts with
        // nogoods, with runs short enough that every size restarts.
        let learning = [
            SearchOptions::default().var_order(VarOrder::DomWdeg),
            SearchOptions::default()
                .var_order(VarOrder::DomWdeg)
                .last_conflict(true),
            SearchOptions::default().last_conflict(true),
            SearchOptions::default()
                .var_order(VarOrder::DomWdeg)
                .last_conflict(true)
                .restarts(Restarts::Geometric { first: 1 }),
            SearchOptions::default()
                .var_order(VarOrder::DomWdeg)
                .value_order(ValueOrder::Split)
                .restarts(Restarts::Luby { unit: 1 }),
        ];
        for ((n, count), options) in [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)]
            .into_iter()
            .flat_map(|queens| learning.iter().map(move |options| (queens, options)))
        {
            let (m, _) = parallel::tests::queens(n);
            let mut ff = Solver::new(&m).all(&SearchOptions::default()).solutions;
            let mut solver = Solver::new(&m);
            let first = solver.all(options);
            // The same solver again (what it learnt starts over) and a new
            // one.
            let again = solver.all(options);
            let fresh = Solver::new(&m).all(options);
            assert_eq!(first.stats.solutions, count, "{n}-queens");
            if options.restarts.is_on() {
                assert!(solver.restarts() > 0, "{n}-queens restarted");
            }
            assert_eq!(
                (&again.solutions, again.stats),
                (&first.solutions, first.stats)
            );
            assert_eq!(
                (&fresh.solutions, fresh.stats),
                (&first.solutions, first.stats)
            );
            let two = std::num::NonZeroUsize::new(2).expect("not zero");
            let parallel = Solver::new(&m).count_parallel(options, two);
            assert_eq!(parallel.stats, first.stats, "{n}-queens on two threads");
            let mut dw = first.solutions;
            ff.sort_by(|a, b| a.values().cmp(b.values()));
            dw.sort_by(|a, b| a.values().cmp(b.values()));
            assert_eq!(dw, ff, "{n}-queens");
        }
    }

    #[test]
    fn one_solver_searches_under_each_option_as_a_new_one_whatever_it_searched_before() {
        // The storage of restarts and probing is made by the first search
        // that uses it and kept after, as are the dom/wdeg weights: a
        // search without them must neither see the nogoods, weights or
        // restart count left by the one before, nor a search with them
        // what a plain one left.
        let (m, _) = parallel::tests::queens(7);
        let plain = SearchOptions::default();
        let options = [
            SearchOptions::default()
                .var_order(VarOrder::DomWdeg)
                .restarts(Restarts::Geometric { first: 1 }),
            plain,
            SearchOptions::default().probe(true),
            SearchOptions::default().restarts(Restarts::Luby { unit: 1 }),
            SearchOptions::default().var_order(VarOrder::DomWdeg),
            plain,
        ];
        let mut solver = Solver::new(&m);
        for (k, options) in options.iter().enumerate() {
            let reused = solver.all(options);
            let mut fresh_solver = Solver::new(&m);
            let fresh = fresh_solver.all(options);
            assert_eq!(
                (&reused.solutions, reused.stats, solver.restarts()),
                (&fresh.solutions, fresh.stats, fresh_solver.restarts()),
                "search {k}"
            );
            assert_eq!(
                solver.restarts() > 0,
                options.restarts.is_on(),
                "search {k} restarts only with restarts on"
            );
        }
    }

    #[test]
    fn the_last_conflict_branches_on_the_variable_of_the_last_failed_left_branch() {
        // In the recorded tree, in the order the nodes were opened: after a
        // left branch `x = v` fails, every choice node where `x` is still
        // open branches on `x`. Whether `x` is open there is worked out
        // apart, by an engine that replays the node's decisions from the
        // root.
        let (m, _) = parallel::tests::queens(7);
        for order in [VarOrder::FirstFail, VarOrder::DomWdeg] {
            let options = SearchOptions::default()
                .var_order(order)
                .last_conflict(true);
            let (tree, outcome) = crate::Tree::record(&m, &options, Mode::All);
            assert_eq!(outcome.stats.solutions, 40, "OEIS A000170");
            let nodes = tree.nodes();
            let mut last: Option<VarId> = None;
            let mut turned = 0;
            for node in nodes {
                match node.kind {
                    NodeKind::Failed { .. } => {
                        if let Some(d) = node.decision {
                            if d.op == DecisionOp::Eq {
                                last = Some(d.var);
                            }
                        }
                    }
                    NodeKind::Choice { branch } => {
                        let Some(x) = last else { continue };
                        let mut path = Vec::new();
                        let mut at = Some(node);
                        while let Some(n) = at {
                            path.extend(n.decision);
                            at = n.parent.map(|p| &nodes[p as usize]);
                        }
                        let mut engine = Engine::new(&m);
                        engine.propagate().expect("the root propagates");
                        for d in path.iter().rev() {
                            engine.restrict(d.var, d.keeps());
                            engine.propagate().expect("a choice node propagates");
                        }
                        if !engine.dom(x).is_fixed() {
                            assert_eq!(branch.var, x, "node {} ({order})", node.id);
                            turned += 1;
                        }
                    }
                    NodeKind::Solution { .. } => {}
                }
            }
            assert!(turned > 0, "the last conflict chose some branch ({order})");
        }
    }

    #[test]
    fn dom_wdeg_turns_to_the_variables_of_the_constraint_that_fails() {
        // `a` comes first and ties with the pigeons on size, so first-fail
        // branches on it and refutes the pigeonhole (four pigeons, three
        // holes) under each of its values. dom/wdeg also starts on `a`, but
        // once the all-different has failed its pigeons weigh more, and
        // the pigeonhole is refuted once, whatever `a` is.
        let mut m = Model::new();
        m.int_var("a", 0, 2).expect("fresh");
        let pigeons: Vec<VarId> = (0..4)
            .map(|i| m.int_var(&format!("p{i}"), 0, 2).expect("fresh"))
            .collect();
        m.all_different(&pigeons, Strength::Value).expect("valid");
        let ff = Solver::new(&m).all(&SearchOptions::default());
        let dw = Solver::new(&m).all(&SearchOptions::default().var_order(VarOrder::DomWdeg));
        for outcome in [&ff, &dw] {
            assert_eq!(outcome.status, SearchStatus::Complete);
            assert_eq!(outcome.stats.solutions, 0);
        }
        assert!(
            dw.stats.nodes < ff.stats.nodes,
            "dom/wdeg {} nodes, first-fail {}",
            dw.stats.nodes,
            ff.stats.nodes
        );
    }
}
