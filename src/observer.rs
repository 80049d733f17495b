//! [`Observer`]: what search and propagation report as they go.
//!
//! Search and the engine are generic over the observer, so with the no-op
//! `()` every call compiles to nothing. The tree and the trace recorders are
//! observers; a user can write their own (count something, stop a log).

use std::fmt;

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchStatus {
    /// The whole tree was explored: the solutions found are all there are.
    Complete,
    /// The mode's solution count was reached (first, at most N); more
    /// solutions may exist.
    SolutionLimit,
    /// Cut short by the node limit.
    NodeLimit,
    /// Cut short by the time limit.
    TimeLimit,
}

impl SearchStatus {
    /// Whether a limit stopped the search before it could finish.
    pub fn is_cut_short(self) -> bool {
        matches!(self, SearchStatus::NodeLimit | SearchStatus::TimeLimit)
    }
}

impl fmt::Display for SearchStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SearchStatus::Complete => "complete",
            SearchStatus::SolutionLimit => "solution limit",
            SearchStatus::NodeLimit => "node limit",
            SearchStatus::TimeLimit => "time limit",
        })
    }
}

/// Receives search and propagation events. Every method does nothing by
/// default.
///
/// Events come in a fixed order: within a node, the propagation events
/// ([`Observer::propagated`], [`Observer::pruned`], [`Observer::conflict`])
/// come first, then [`Observer::node`] with what the node turned out to be.
pub trait Observer {
    /// Whether the engine should report [`Observer::propagated`] and
    /// [`Observer::pruned`]. When false (the default) the engine skips the
    /// bookkeeping entirely.
    const PROPAGATION: bool = false;

    /// The propagator of constraint `by` ran (and did not fail).
    fn propagated(&mut self, by: ConstraintId) {
        let _ = by;
    }

    /// Constraint `by` narrowed `x` from `before` to `after`.
    fn pruned(&mut self, by: ConstraintId, x: VarId, before: Domain, after: Domain) {
        let _ = (by, x, before, after);
    }

    /// Constraint `by` found that no solution is left.
    fn conflict(&mut self, by: ConstraintId) {
        let _ = by;
    }

    /// A node of the search tree is complete (its propagation is done).
    fn node(&mut self, node: &Node) {
        let _ = node;
    }

    /// The search ended, for the given reason.
    fn finished(&mut self, status: SearchStatus) {
        let _ = status;
    }
}

/// Observes nothing, at no cost.
impl Observer for () {}

/// A number naming a node of the search tree: the root is 0, and nodes are
/// numbered in the order search visits them (depth first, left first).
pub type NodeId = u64;

/// One node of the search tree, as search reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// This node's number.
    pub id: NodeId,
    /// The choice node this one is a branch of; `None` for the root.
    pub parent: Option<NodeId>,
    /// The number of decisions from the root (the root has depth 0).
    pub depth: u32,
    /// The decision on the branch that led here; `None` for the root.
    pub decision: Option<Decision>,
    /// What the node turned out to be.
    pub kind: NodeKind,
}

/// What a node of the search tree is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Propagation left some variable unfixed: search branches here. The
    /// left child gets `branch`, the right child its negation.
    Choice {
        /// The left branch's decision.
        branch: Decision,
    },
    /// Propagation found a conflict; `by` is the constraint that found it
    /// (`None` for a decision that emptied a domain by itself, which the
    /// built-in branchings never make, or for a nogood recorded at a
    /// restart, [`SearchOptions::restarts`](crate::SearchOptions::restarts)).
    Failed {
        /// The constraint that failed.
        by: Option<ConstraintId>,
    },
    /// Every variable is fixed: a solution, numbered from 1.
    Solution {
        /// 1 for the first solution found, 2 for the second, ...
        index: u64,
    },
}

/// A branching decision: `x = v`, `x != v`, `x <= v` or `x > v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    /// The variable decided on.
    pub var: VarId,
    /// The relation.
    pub op: DecisionOp,
    /// The value.
    pub value: u8,
}

/// The relation of a [`Decision`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionOp {
    /// `x = v`.
    Eq,
    /// `x != v`.
    Ne,
    /// `x <= v`.
    Le,
    /// `x > v`.
    Gt,
}

impl DecisionOp {
    /// The operator as written: `=`, `!=`, `<=`, `>`.
    pub fn symbol(self) -> &'static str {
        match self {
            DecisionOp::Eq => "=",
            DecisionOp::Ne => "!=",
            DecisionOp::Le => "<=",
            DecisionOp::Gt => ">",
        }
    }

    /// The opposite relation, taken by the right branch.
    pub fn negate(self) -> DecisionOp {
        match self {
            DecisionOp::Eq => DecisionOp::Ne,
            DecisionOp::Ne => DecisionOp::Eq,
            DecisionOp::Le => DecisionOp::Gt,
            DecisionOp::Gt => DecisionOp::Le,
        }
    }
}

impl fmt::Display for DecisionOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

impl Decision {
    /// The values of `x` this decision keeps.
    pub fn keeps(self) -> Domain {
        let v = i32::from(self.value);
        match self.op {
            DecisionOp::Eq => Domain::singleton(self.value),
            DecisionOp::Ne => !Domain::singleton(self.value),
            DecisionOp::Le => Domain::FULL.at_most(v),
            DecisionOp::Gt => Domain::FULL.at_least(v + 1),
        }
    }

    /// The decision of the other branch.
    pub fn negate(self) -> Decision {
        Decision {
            op: self.op.negate(),
            ..self
        }
    }
}

/// Forwards every event to the observer behind the reference, so a caller
/// can lend an observer to a search and read it afterwards.
impl<O: Observer> Observer for &mut O {
    const PROPAGATION: bool = O::PROPAGATION;

    #[inline]
    fn propagated(&mut self, by: ConstraintId) {
        (**self).propagated(by);
    }

    #[inline]
    fn pruned(&mut self, by: ConstraintId, x: VarId, before: Domain, after: Domain) {
        (**self).pruned(by, x, before, after);
    }

    #[inline]
    fn conflict(&mut self, by: ConstraintId) {
        (**self).conflict(by);
    }

    #[inline]
    fn node(&mut self, node: &Node) {
        (**self).node(node);
    }

    #[inline]
    fn finished(&mut self, status: SearchStatus) {
        (**self).finished(status);
    }
}

/// Two observers at once (a tree and a trace of the same search): each
/// event goes to the first, then to the second. Propagation events are
/// reported when either wants them, and forwarded only to the one that does.
impl<A: Observer, B: Observer> Observer for (A, B) {
    const PROPAGATION: bool = A::PROPAGATION || B::PROPAGATION;

    #[inline]
    fn propagated(&mut self, by: ConstraintId) {
        if A::PROPAGATION {
            self.0.propagated(by);
        }
        if B::PROPAGATION {
            self.1.propagated(by);
        }
    }

    #[inline]
    fn pruned(&mut self, by: ConstraintId, x: VarId, before: Domain, after: Domain) {
        if A::PROPAGATION {
            self.0.pruned(by, x, before, after);
        }
        if B::PROPAGATION {
            self.1.pruned(by, x, before, after);
        }
    }

    #[inline]
    fn conflict(&mut self, by: ConstraintId) {
        self.0.conflict(by);
        self.1.conflict(by);
    }

    #[inline]
    fn node(&mut self, node: &Node) {
        self.0.node(node);
        self.1.node(node);
    }

    #[inline]
    fn finished(&mut self, status: SearchStatus) {
        self.0.finished(status);
        self.1.finished(status);
    }
}
