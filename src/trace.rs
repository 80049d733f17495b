//! [`Trace`]: the deduction trace, recorded by an [`Observer`]: every
//! propagation step that narrowed a domain (which constraint, which values
//! from which variable), every guess, every conflict and every solution, in
//! the order they happened; and [`Profile`], the work each constraint did.
//!
//! # The text
//!
//! `Trace`'s `Display` writes the trace in the spirit of the zebra solver
//! seed 001 ("Progress: …", "Guessing: …", "Conflict: …", "Solution"), but
//! saying what each step deduced. From the Oz tutorial's zebra under Oz
//! semantics (the test suite's `snapshots/zebra_oz_semantics.trace.snap`):
//!
//! ```text
//! # bitfd-trace 1
//! Progress: The Norwegian lives in the first house.
//!   removed 2, 3, 4, 5 from norwegian, so norwegian = 1
//! Progress: Milk is drunk in the third house.
//!   removed 1, 2, 4, 5 from milk, so milk = 3
//! ...
//! Guessing: coffee = 4
//! ...
//!     Guessing: dog = 2
//!       Progress: The Spaniard owns a dog.
//!         removed 5 from spanish, so spanish = 2
//!       Progress: all-different(english, spanish, japanese, italian, norwegian)
//!         removed 2 from japanese, so japanese = 4
//!         removed 2 from italian, so italian = 5
//!       Progress: The Japanese is a painter.
//!         removed 2 from painter, so painter = 4
//!       Progress: The Italian drinks tea.
//!         removed 2 from tea, so tea = 5
//!       Progress: all-different(painter, diplomat, violinist, doctor, sculptor)
//!         removed 4 from doctor, leaving {1..3}
//!       Progress: The fox is in the house next to that of the doctor.
//!         removed 5 from fox, leaving {2,3}
//!       Progress: all-different(dog, zebra, fox, snails, horse)
//!         removed 2 from fox, so fox = 3
//!         removed 2 from snails, so snails = 3
//!       Conflict: all-different(dog, zebra, fox, snails, horse)
//!     Guessing: dog != 2
//! ...
//!           removed 1 from water, so water = 4
//!         Solution 1
//! # steps 290; guesses 32; conflicts 16; solutions 1; status complete
//! ```
//!
//! * The first line names the format and its version.
//! * `Progress: C` is one run of constraint `C`'s propagator that narrowed
//!   something; `C` is the constraint's label, or its kind and variables
//!   ([`Model::describe`]). Each narrowed variable follows on its own line:
//!   the values removed, in increasing order, and what is left. A run that
//!   narrowed nothing is not shown (it counts in the [`Profile`]). A run
//!   that failed shows what it had removed before it found the conflict
//!   (above: the all-different fixed fox and snails both to 3), then the
//!   `Conflict` line.
//! * `Guessing: x = v` opens the search node that decision leads to
//!   (`x != v` for the right branch, so a line `Guessing: x != v` also means
//!   search came back from the `x = v` side). Everything that happens in a
//!   node at depth `d` is indented by `2 d` spaces, its guess by `2 (d - 1)`.
//! * `Conflict: C` is the constraint whose propagator found that no solution
//!   is left in this node; `Solution N` is the N-th solution.
//! * The last line counts the steps, guesses, conflicts and solutions, and
//!   says why the search ended (as the tree's footer does).
//! * A trace past its [budget](Trace#budget) has one more line before the
//!   last: `# truncated at N steps: the steps after these were not
//!   recorded`. The last line still counts every step of the search.
//!
//! Names and labels have their control characters escaped, so each step's
//! header is one line.
//!
//! # Order
//!
//! The steps come in the order the engine ran the propagators, which is fixed
//! by the model alone: propagators run cheapest class first and, within a
//! class, in the order their constraints were posted (the
//! [engine's scheduling](crate::Engine)); search is depth first, left branch
//! first. So the same model gives the same trace, byte for byte.

use std::fmt::{self, Write as _};

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::model::Model;
use crate::observer::SearchStatus;
use crate::observer::{Decision, Node, NodeKind, Observer};
use crate::search::{Mode, Outcome, SearchOptions, Solver};
use crate::tree::{DEFAULT_RECORD_LIMIT, Legend};

/// The version of the trace's text format; a change gets a new number.
pub const FORMAT_VERSION: u32 = 1;

/// One narrowed variable of a [`StepKind::Progress`] step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removal {
    /// The variable.
    pub var: VarId,
    /// The values the step removed from it (never empty).
    pub removed: Domain,
    /// The values left after the step (never empty).
    pub left: Domain,
}

/// What one step of a [`Trace`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// One propagator run that narrowed at least one domain.
    Progress {
        /// The constraint whose propagator ran.
        by: ConstraintId,
        /// The variables it narrowed, in the order it first narrowed each
        /// (two narrowings of one variable in a run are merged).
        removals: Vec<Removal>,
    },
    /// A search decision, opening the node it leads to.
    Guess {
        /// The decision.
        decision: Decision,
    },
    /// A propagator found that no solution is left in this node.
    Conflict {
        /// The constraint whose propagator found it.
        by: ConstraintId,
    },
    /// Every variable is fixed: a solution.
    Solution {
        /// 1 for the first solution found, 2 for the second, ...
        index: u64,
    },
}

/// One step of a [`Trace`], with the depth of the search node it happened
/// in (for a guess: the depth of the node it opens).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The depth of the node (the root has depth 0).
    pub depth: u32,
    /// What happened.
    pub kind: StepKind,
}

/// A deduction trace. Pass it to [`Solver::solve_observed`] as the
/// observer; then `to_string()` is the text (see the [module docs](self))
/// and [`Trace::profile`] the work of each constraint.
///
/// ```
/// use bitfd::{Mode, Model, SearchOptions, Solver, Strength, Trace};
///
/// let mut m = Model::new();
/// let fox = m.int_var("fox", 1, 3)?;
/// let dog = m.int_var("dog", 1, 3)?;
/// m.all_different(&[fox, dog], Strength::Value)?;
/// let first = m.equal_value(dog, 1)?;
/// m.set_label(first, "The dog lives in the first house.");
///
/// let mut trace = Trace::new(&m);
/// let outcome = Solver::new(&m).solve_observed(&SearchOptions::default(), Mode::All, &mut trace);
/// assert_eq!(outcome.solutions.len(), 2);
/// assert_eq!(
///     trace.to_string(),
///     "\
/// ## bitfd-trace 1
/// Progress: The dog lives in the first house.
///   removed 2, 3 from dog, so dog = 1
/// Progress: all-different(fox, dog)
///   removed 1 from fox, leaving {2,3}
/// Guessing: fox = 2
///   Solution 1
/// Guessing: fox != 2
///   Solution 2
/// ## steps 6; guesses 2; conflicts 0; solutions 2; status complete
/// "
/// );
/// assert_eq!(
///     trace.profile().to_string(),
///     "  runs  removed  conflicts  constraint
///      3        1          0  all-different(fox, dog)
///      1        2          0  The dog lives in the first house.
/// "
/// );
/// # Ok::<(), bitfd::ModelError>(())
/// ```
///
/// A trace records one search; passing it to a second search starts it over.
///
/// # Budget
///
/// A trace keeps at most [`Trace::record_limit`] steps
/// ([`DEFAULT_RECORD_LIMIT`] unless [`Trace::set_record_limit`] says
/// otherwise), so a long search cannot exhaust memory through its trace.
/// Past the budget it records no more steps (it ends at the last search
/// node whose steps all fit), but it still counts them: the footer and the
/// [`Profile`] are the whole search's, the search goes on as if nothing
/// were recorded, and the text says `truncated at N steps`.
#[derive(Clone, Debug)]
pub struct Trace {
    legend: Legend,
    /// At most `limit`; past it, the steps of whole nodes only.
    steps: Vec<Step>,
    /// The most steps recorded.
    limit: u64,
    /// Whether a step came past `limit`: then no more are recorded.
    truncated: bool,
    /// Every step of the search, recorded or not, and of each kind.
    counts: Counts,
    /// Where the current search node's steps begin in `steps`: its guess
    /// goes there once the node reports its decision.
    node_start: usize,
    /// Whether the last step is a `Progress` still collecting removals of
    /// the running propagator.
    open: bool,
    /// Per constraint: propagator runs, values removed, conflicts found.
    runs: Vec<u64>,
    removed: Vec<u64>,
    conflicts: Vec<u64>,
    /// Why the search ended; `None` while it runs.
    status: Option<SearchStatus>,
}

/// The steps of a search, counted as they happen.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    steps: u64,
    guesses: u64,
    conflicts: u64,
    solutions: u64,
}

impl Trace {
    /// An empty trace for a search of `model`.
    pub fn new(model: &Model) -> Trace {
        let legend = Legend::new(model);
        let n = legend.constraint_count();
        Trace {
            legend,
            steps: Vec::new(),
            limit: DEFAULT_RECORD_LIMIT,
            truncated: false,
            counts: Counts::default(),
            node_start: 0,
            open: false,
            runs: vec![0; n],
            removed: vec![0; n],
            conflicts: vec![0; n],
            status: None,
        }
    }

    /// Searches `model` in `mode`, recording the trace: a shorthand for
    /// [`Trace::new`] and [`Solver::solve_observed`].
    pub fn record(model: &Model, options: &SearchOptions, mode: Mode) -> (Trace, Outcome) {
        let mut trace = Trace::new(model);
        let outcome = Solver::new(model).solve_observed(options, mode, &mut trace);
        (trace, outcome)
    }

    /// The steps, in the order they happened (the first ones only, if the
    /// trace [is truncated](Trace::is_truncated)).
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Records at most `steps` steps of a search (see the
    /// [budget](Trace#budget)); for the searches to come.
    pub fn set_record_limit(&mut self, steps: u64) {
        self.limit = steps;
    }

    /// The most steps this trace records.
    pub fn record_limit(&self) -> u64 {
        self.limit
    }

    /// Whether the search went past the [budget](Trace#budget): then
    /// [`Trace::steps`] holds only the steps before.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Why the search ended, or `None` if it has not.
    pub fn status(&self) -> Option<SearchStatus> {
        self.status
    }

    /// Empties the trace for a new search.
    pub fn clear(&mut self) {
        self.steps.clear();
        self.truncated = false;
        self.counts = Counts::default();
        self.node_start = 0;
        self.open = false;
        self.runs.fill(0);
        self.removed.fill(0);
        self.conflicts.fill(0);
        self.status = None;
    }

    /// How often each constraint's propagator ran, how many values it
    /// removed and how many conflicts it found, over the whole search.
    pub fn profile(&self) -> Profile {
        let rows = self
            .legend
            .constraint_ids()
            .map(|c| ProfileRow {
                constraint: c,
                description: self.legend.describe(c).into_owned(),
                runs: self.runs[c.index()],
                removed: self.removed[c.index()],
                conflicts: self.conflicts[c.index()],
            })
            .collect();
        Profile { rows }
    }

    /// Called first by every event: an event after the end of a search
    /// belongs to a new one.
    #[inline]
    fn begin(&mut self) {
        if self.status.is_some() {
            self.clear();
        }
    }

    /// Whether one more step fits in the budget. When it does not, the
    /// trace is truncated at `node_start`, where the current node's steps
    /// begin (its guess included), so that it ends with whole nodes: a
    /// node's guess goes in front of its steps once the node is over, and
    /// could not be put there after the budget ran out.
    #[inline]
    fn fits(&mut self, node_start: usize) -> bool {
        if self.truncated {
            return false;
        }
        if (self.steps.len() as u64) < self.limit {
            return true;
        }
        self.steps.truncate(node_start);
        self.truncated = true;
        false
    }
}

impl Observer for Trace {
    const PROPAGATION: bool = true;

    fn propagated(&mut self, by: ConstraintId) {
        self.begin();
        self.runs[by.index()] += 1;
        self.open = false;
    }

    fn pruned(&mut self, by: ConstraintId, x: VarId, before: Domain, after: Domain) {
        self.begin();
        let removed = before - after;
        self.removed[by.index()] += u64::from(removed.size());
        if !self.open {
            self.open = true;
            self.counts.steps += 1;
            if !self.fits(self.node_start) {
                return;
            }
            self.steps.push(Step {
                depth: 0,
                kind: StepKind::Progress {
                    by,
                    removals: Vec::new(),
                },
            });
        } else if self.truncated {
            return;
        }
        let Some(Step {
            kind: StepKind::Progress { removals, .. },
            ..
        }) = self.steps.last_mut()
        else {
            unreachable!("an open step is a Progress step");
        };
        match removals.iter_mut().find(|r| r.var == x) {
            Some(r) => {
                r.removed |= removed;
                r.left = after;
            }
            None => removals.push(Removal {
                var: x,
                removed,
                left: after,
            }),
        }
    }

    fn conflict(&mut self, by: ConstraintId) {
        self.begin();
        self.runs[by.index()] += 1;
        self.conflicts[by.index()] += 1;
        self.open = false;
        self.counts.steps += 1;
        self.counts.conflicts += 1;
        if self.fits(self.node_start) {
            self.steps.push(Step {
                depth: 0,
                kind: StepKind::Conflict { by },
            });
        }
    }

    fn node(&mut self, node: &Node) {
        self.begin();
        // The node's propagation steps came before the node said where it
        // is: put its guess in front of them and give them its depth.
        let start = self.node_start;
        if let Some(decision) = node.decision {
            self.counts.steps += 1;
            self.counts.guesses += 1;
            if self.fits(start) {
                self.steps.insert(
                    self.node_start,
                    Step {
                        depth: node.depth,
                        kind: StepKind::Guess { decision },
                    },
                );
                self.node_start += 1;
            }
        }
        for step in &mut self.steps[self.node_start..] {
            step.depth = node.depth;
        }
        if let NodeKind::Solution { index } = node.kind {
            self.counts.steps += 1;
            self.counts.solutions += 1;
            if self.fits(start) {
                self.steps.push(Step {
                    depth: node.depth,
                    kind: StepKind::Solution { index },
                });
            }
        }
        self.node_start = self.steps.len();
    }

    fn finished(&mut self, status: SearchStatus) {
        self.begin();
        self.status = Some(status);
    }
}

/// Writes `2 depth` spaces.
fn indent(f: &mut impl fmt::Write, depth: u32) -> fmt::Result {
    for _ in 0..depth {
        f.write_str("  ")?;
    }
    Ok(())
}

impl fmt::Display for Trace {
    /// The text of the [module docs](self).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "# bitfd-trace {FORMAT_VERSION}")?;
        for step in &self.steps {
            match &step.kind {
                StepKind::Progress { by, removals } => {
                    indent(f, step.depth)?;
                    writeln!(f, "Progress: {}", self.legend.describe(*by))?;
                    for r in removals {
                        indent(f, step.depth + 1)?;
                        f.write_str("removed ")?;
                        for (i, v) in r.removed.iter().enumerate() {
                            if i > 0 {
                                f.write_str(", ")?;
                            }
                            write!(f, "{v}")?;
                        }
                        let name = self.legend.name(r.var);
                        match r.left.value() {
                            Some(v) => writeln!(f, " from {name}, so {name} = {v}")?,
                            None => writeln!(f, " from {name}, leaving {}", r.left)?,
                        }
                    }
                }
                StepKind::Guess { decision } => {
                    indent(f, step.depth.saturating_sub(1))?;
                    f.write_str("Guessing: ")?;
                    self.legend.write_decision(f, *decision)?;
                    f.write_char('\n')?;
                }
                StepKind::Conflict { by } => {
                    indent(f, step.depth)?;
                    writeln!(f, "Conflict: {}", self.legend.describe(*by))?;
                }
                StepKind::Solution { index } => {
                    indent(f, step.depth)?;
                    writeln!(f, "Solution {index}")?;
                }
            }
        }
        if self.truncated {
            writeln!(
                f,
                "# truncated at {} steps: the steps after these were not recorded",
                self.limit
            )?;
        }
        let c = self.counts;
        write!(
            f,
            "# steps {}; guesses {}; conflicts {}; solutions {}; status ",
            c.steps, c.guesses, c.conflicts, c.solutions
        )?;
        match self.status {
            Some(status) => writeln!(f, "{status}"),
            None => writeln!(f, "unfinished"),
        }
    }
}

/// The work of one constraint over a search; a row of a [`Profile`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ProfileRow {
    /// The constraint.
    #[cfg_attr(feature = "serde", serde(serialize_with = "constraint_index"))]
    pub constraint: ConstraintId,
    /// Its label, or its kind and variables.
    pub description: String,
    /// How many times its propagator ran (conflicts included).
    pub runs: u64,
    /// How many values it removed, over all variables and runs.
    pub removed: u64,
    /// How many conflicts it found.
    pub conflicts: u64,
}

/// The work each constraint did over a search ([`Trace::profile`]): which
/// clues did the deducing. Its `Display` is a table with one row a
/// constraint, in posting order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Profile {
    /// One row a constraint, in posting order (constraints that never ran
    /// included).
    pub rows: Vec<ProfileRow>,
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  runs  removed  conflicts  constraint")?;
        for r in &self.rows {
            writeln!(
                f,
                "{:>6}  {:>7}  {:>9}  {}",
                r.runs, r.removed, r.conflicts, r.description
            )?;
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
fn constraint_index<S: serde::Serializer>(c: &ConstraintId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(c.index() as u64)
}
