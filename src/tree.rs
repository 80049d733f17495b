//! [`Tree`]: the search tree, recorded by an [`Observer`] and rendered as
//! stable text (for snapshot tests), as DOT (for Graphviz) and as JSON (for
//! tools, with the `serde` feature).
//!
//! Recording is off unless a [`Tree`] is passed to
//! [`Solver::solve_observed`]: the plain [`Solver::solve`] observes with `()`,
//! which compiles to nothing. A tree copies what rendering needs from the
//! model when it is made (variable names, constraint descriptions, a summary
//! of strengths) so it can render long after the model is gone.
//!
//! Invariant: `nodes[i].id == i`; search numbers nodes in visit order from 0,
//! so a node's parent always comes before it.
//!
//! The text format, in full:
#![doc = include_str!("../docs/tree-format.md")]

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::sync::Arc;
use std::time::Duration;

use crate::ids::{ConstraintId, VarId};
use crate::model::{Constraint, Model, Names, Strength};
use crate::observer::SearchStatus;
use crate::observer::{Decision, Node, NodeId, NodeKind, Observer};
use crate::search::{Mode, Outcome, SearchOptions, Solver, Stats, ValueOrder, VarOrder};

/// The version of the text, DOT and JSON formats written by [`Tree`]; a change
/// to any of them gets a new number.
pub const FORMAT_VERSION: u32 = 1;

/// What rendering needs from a model: variable names and one description a
/// constraint. Shared by [`Tree`] and [`Trace`](crate::Trace).
#[derive(Clone, Debug)]
pub(crate) struct Legend {
    names: Arc<Names>,
    /// The model's constraints in posting order: `ids[i].index() == i`.
    ids: Vec<ConstraintId>,
    /// `constraints[c]`: [`Model::describe`] of constraint `c`.
    constraints: Vec<Box<str>>,
}

impl Legend {
    pub(crate) fn new(model: &Model) -> Legend {
        let constraints = model
            .constraint_ids()
            .map(|c| model.describe(c).into_boxed_str())
            .collect();
        Legend {
            names: Arc::new(model.names().clone()),
            ids: model.constraint_ids().collect(),
            constraints,
        }
    }

    /// The name of `x`, with control characters escaped.
    pub(crate) fn name(&self, x: VarId) -> Cow<'_, str> {
        one_line(self.names.get(x.index()))
    }

    /// The description of `c`, with control characters escaped.
    pub(crate) fn describe(&self, c: ConstraintId) -> Cow<'_, str> {
        match self.constraints.get(c.index()) {
            Some(text) => one_line(text),
            None => Cow::Owned(format!("constraint #{}", c.index())),
        }
    }

    /// The number of constraints.
    pub(crate) fn constraint_count(&self) -> usize {
        self.constraints.len()
    }

    /// The constraints in posting order.
    pub(crate) fn constraint_ids(&self) -> impl Iterator<Item = ConstraintId> + '_ {
        self.ids.iter().copied()
    }

    /// Writes `x = v` (or `!=`, `<=`, `>`) with the variable's name.
    pub(crate) fn write_decision(&self, out: &mut impl fmt::Write, d: Decision) -> fmt::Result {
        write!(out, "{} {} {}", self.name(d.var), d.op, d.value)
    }

    /// The decision as text.
    pub(crate) fn decision(&self, d: Decision) -> String {
        let mut s = String::new();
        self.write_decision(&mut s, d).expect("writing to a String");
        s
    }
}

/// `s` with every control character escaped (`\n`, `\t`, `\u{1b}`), so that
/// it fits on one line.
pub(crate) fn one_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for ch in s.chars() {
        if ch.is_control() {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    Cow::Owned(out)
}

/// The search settings and the model's propagation strengths, as a tree's
/// header names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TreeSettings {
    /// Variable selection.
    #[cfg_attr(feature = "serde", serde(serialize_with = "display"))]
    pub var_order: VarOrder,
    /// Value selection.
    #[cfg_attr(feature = "serde", serde(serialize_with = "display"))]
    pub value_order: ValueOrder,
    /// The node limit, if any.
    pub node_limit: Option<u64>,
    /// The time limit in milliseconds, if any.
    pub time_limit_ms: Option<u128>,
    /// All-different constraints with [`Strength::Value`].
    pub all_different_value: u32,
    /// All-different constraints with [`Strength::Domain`].
    pub all_different_domain: u32,
    /// Each-value-held constraints.
    pub each_value_held: u32,
}

impl TreeSettings {
    /// The settings of a search of `model` with `options`.
    pub fn new(model: &Model, options: &SearchOptions) -> TreeSettings {
        let mut s = TreeSettings {
            var_order: options.var_order,
            value_order: options.value_order,
            node_limit: options.node_limit,
            time_limit_ms: options.time_limit.as_ref().map(Duration::as_millis),
            all_different_value: 0,
            all_different_domain: 0,
            each_value_held: 0,
        };
        for (_, c) in model.constraints() {
            match c {
                Constraint::AllDifferent {
                    strength: Strength::Value,
                    ..
                } => s.all_different_value += 1,
                Constraint::AllDifferent {
                    strength: Strength::Domain,
                    ..
                } => s.all_different_domain += 1,
                Constraint::EachValueHeld { .. } => s.each_value_held += 1,
                _ => {}
            }
        }
        s
    }
}

impl fmt::Display for TreeSettings {
    /// `var first-fail; value min; all-different 5 value, 0 domain;
    /// each-value-held 0; node limit none; time limit none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "var {}; value {}; all-different {} value, {} domain; each-value-held {}; ",
            self.var_order,
            self.value_order,
            self.all_different_value,
            self.all_different_domain,
            self.each_value_held
        )?;
        match self.node_limit {
            Some(n) => write!(f, "node limit {n}; ")?,
            None => f.write_str("node limit none; ")?,
        }
        match self.time_limit_ms {
            Some(ms) => write!(f, "time limit {ms}ms"),
            None => f.write_str("time limit none"),
        }
    }
}

/// The counts of a recorded tree: what [`Stats`] counts, less the
/// propagations, which a tree does not see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TreeStats {
    /// Every node: choices + failures + solutions.
    pub nodes: u64,
    /// Choice nodes.
    pub choices: u64,
    /// Failed leaves.
    pub failures: u64,
    /// Solution leaves.
    pub solutions: u64,
    /// The depth of the deepest node (the root has depth 0).
    pub max_depth: u32,
}

impl From<Stats> for TreeStats {
    fn from(s: Stats) -> TreeStats {
        TreeStats {
            nodes: s.nodes,
            choices: s.choices,
            failures: s.failures,
            solutions: s.solutions,
            max_depth: s.max_depth,
        }
    }
}

/// A branch that search never took because a limit stopped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unexplored {
    /// The choice node the branch leaves from.
    pub parent: NodeId,
    /// The branch's decision.
    pub decision: Decision,
}

/// A recorded search tree. Pass it to [`Solver::solve_observed`] as the
/// observer; then `to_string()` is the text format (see the [module
/// docs](self)), [`Tree::to_dot`] the Graphviz rendering.
///
/// ```
/// use bitfd::{Mode, Model, SearchOptions, Solver, Strength, Tree};
///
/// // Three people, three houses; alice is left of bob.
/// let mut m = Model::new();
/// let alice = m.int_var("alice", 1, 3)?;
/// let bob = m.int_var("bob", 1, 3)?;
/// let carol = m.int_var("carol", 1, 3)?;
/// m.all_different(&[alice, bob, carol], Strength::Value)?;
/// let left = m.less(alice, bob)?;
/// m.set_label(left, "Alice lives left of Bob.");
///
/// let options = SearchOptions::default();
/// let mut tree = Tree::new(&m, &options);
/// let outcome = Solver::new(&m).solve_observed(&options, Mode::All, &mut tree);
/// assert_eq!(tree.stats().nodes, outcome.stats.nodes);
/// assert_eq!(
///     tree.to_string(),
///     "\
/// ## bitfd-tree 1; var first-fail; value min; all-different 1 value, 0 domain; each-value-held 0; node limit none; time limit none
/// root  choice
///   alice = 1  choice
///     bob = 2  solution 1
///     bob != 2  solution 2
///   alice != 1  solution 3
/// ## nodes 5; choices 2; failures 0; solutions 3; max depth 2; status complete
/// "
/// );
/// # Ok::<(), bitfd::ModelError>(())
/// ```
///
/// In a snapshot test (with the [insta](https://insta.rs) crate), the
/// shorthand [`Tree::record`] does the solver part:
///
/// ```
/// # use bitfd::{Mode, Model, SearchOptions, Tree};
/// # let mut m = Model::new();
/// # let x = m.int_var("x", 1, 2)?;
/// let (tree, outcome) = Tree::record(&m, &SearchOptions::default(), Mode::All);
/// assert_eq!(outcome.solutions.len(), 2);
/// insta::assert_snapshot!(tree.to_string(), @r"
/// ## bitfd-tree 1; var first-fail; value min; all-different 0 value, 0 domain; each-value-held 0; node limit none; time limit none
/// root  choice
///   x = 1  solution 1
///   x != 1  solution 2
/// ## nodes 3; choices 1; failures 0; solutions 2; max depth 1; status complete
/// ");
/// # Ok::<(), bitfd::ModelError>(())
/// ```
///
/// A tree records one search; passing it to a second search starts it over.
///
/// # Budget
///
/// A tree keeps at most [`Tree::record_limit`] nodes
/// ([`DEFAULT_RECORD_LIMIT`] unless [`Tree::set_record_limit`] says
/// otherwise), so a long search cannot exhaust memory through its
/// recording. Past the budget the tree records no more nodes, but it still
/// counts them: [`Tree::stats`] and the footer are the whole search's, the
/// search itself goes on as if nothing were recorded, and every rendering
/// says `truncated at N nodes`.
///
/// ```
/// use bitfd::{Mode, Model, SearchOptions, Tree};
///
/// let mut m = Model::new();
/// let x = m.int_var("x", 1, 20)?;
/// let y = m.int_var("y", 1, 20)?;
/// let options = SearchOptions::default();
/// let mut tree = Tree::new(&m, &options);
/// tree.set_record_limit(10);
/// let outcome = bitfd::Solver::new(&m).solve_observed(&options, Mode::Count, &mut tree);
/// assert_eq!(outcome.stats.solutions, 400);
/// assert_eq!(tree.nodes().len(), 10);
/// assert!(tree.is_truncated());
/// assert_eq!(tree.stats().nodes, outcome.stats.nodes);
/// assert!(tree.to_string().contains("\n# truncated at 10 nodes"));
/// # Ok::<(), bitfd::ModelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Tree {
    legend: Legend,
    settings: TreeSettings,
    /// The nodes in visit order; `nodes[i].id == i`. At most `limit`.
    nodes: Vec<Node>,
    /// Every node reported, recorded or not.
    stats: TreeStats,
    /// The most nodes recorded.
    limit: u64,
    /// Whether a node came past `limit`: then `nodes` is the first `limit`
    /// of the search (a prefix in visit order), and `stats` counts more.
    truncated: bool,
    /// Why the search ended; `None` while it runs.
    status: Option<SearchStatus>,
}

/// How many nodes a [`Tree`], or steps a [`Trace`](crate::Trace), records
/// by default: a million, some tens of megabytes.
pub const DEFAULT_RECORD_LIMIT: u64 = 1_000_000;

impl Tree {
    /// An empty tree for a search of `model` with `options`.
    pub fn new(model: &Model, options: &SearchOptions) -> Tree {
        Tree {
            legend: Legend::new(model),
            settings: TreeSettings::new(model, options),
            nodes: Vec::new(),
            stats: TreeStats::default(),
            limit: DEFAULT_RECORD_LIMIT,
            truncated: false,
            status: None,
        }
    }

    /// Records at most `nodes` nodes of a search (see the
    /// [budget](Tree#budget)); for the searches to come.
    pub fn set_record_limit(&mut self, nodes: u64) {
        self.limit = nodes;
    }

    /// The most nodes this tree records.
    pub fn record_limit(&self) -> u64 {
        self.limit
    }

    /// Whether the search went past the [budget](Tree#budget): then
    /// [`Tree::nodes`] holds its first [`Tree::record_limit`] nodes only.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Searches `model` in `mode`, recording the tree: a shorthand for
    /// [`Tree::new`] and [`Solver::solve_observed`].
    pub fn record(model: &Model, options: &SearchOptions, mode: Mode) -> (Tree, Outcome) {
        let mut tree = Tree::new(model, options);
        let outcome = Solver::new(model).solve_observed(options, mode, &mut tree);
        (tree, outcome)
    }

    /// The search settings and strengths the header names.
    pub fn settings(&self) -> &TreeSettings {
        &self.settings
    }

    /// The nodes in visit order; `nodes()[i].id == i`.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Why the search ended, or `None` if it has not.
    pub fn status(&self) -> Option<SearchStatus> {
        self.status
    }

    /// The counts of every node the search reported, recorded or not
    /// (for a tree within its budget, the counts of [`Tree::nodes`]).
    pub fn stats(&self) -> TreeStats {
        self.stats
    }

    /// The branches search left untaken because a limit stopped it, in the
    /// order they would have been visited after the nodes before them.
    pub fn unexplored(&self) -> Vec<Unexplored> {
        let mut out = Vec::new();
        self.walk(|event| {
            if let Walk::Unexplored(u) = event {
                out.push(u);
            }
            Ok::<(), std::convert::Infallible>(())
        })
        .expect("the closure never fails");
        out
    }

    /// Whether a limit stopped the search before its root: no node, and a
    /// status other than complete.
    fn root_unexplored(&self) -> bool {
        self.stats.nodes == 0 && self.status.is_some_and(|s| s != SearchStatus::Complete)
    }

    /// Empties the tree for a new search.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.stats = TreeStats::default();
        self.truncated = false;
        self.status = None;
    }

    /// `truncated at N nodes`, for a truncated tree.
    fn truncation(&self) -> Option<String> {
        self.truncated
            .then(|| format!("truncated at {} nodes", self.limit))
    }

    /// Visits the nodes in order, with each unexplored branch where a
    /// preorder listing puts it: after its choice's last descendant. In a
    /// truncated tree, the choices still open after the last node recorded
    /// have children that were not recorded: no unexplored branch is made
    /// up for them.
    fn walk<E>(&self, mut visit: impl FnMut(Walk<'_>) -> Result<(), E>) -> Result<(), E> {
        // Open choices on the current path: (id, depth, children seen).
        let mut open: Vec<(NodeId, u32, u8)> = Vec::new();
        // Closes the open choices at `depth` or deeper: their subtrees are
        // complete, so report the branches they never took.
        let close = |open: &mut Vec<(NodeId, u32, u8)>,
                     depth: u32,
                     visit: &mut dyn FnMut(Walk<'_>) -> Result<(), E>|
         -> Result<(), E> {
            while open.last().is_some_and(|&(_, d, _)| d >= depth) {
                let (id, _, seen) = open.pop().expect("checked");
                let NodeKind::Choice { branch } = self.nodes[id as usize].kind else {
                    unreachable!("only choices are opened")
                };
                // Binary branching: the left child takes `branch`, the right
                // its negation; whatever was not seen was not explored.
                let missing: &[Decision] = match seen {
                    0 => &[branch, branch.negate()],
                    1 => &[branch.negate()],
                    _ => &[],
                };
                for &decision in missing {
                    visit(Walk::Unexplored(Unexplored {
                        parent: id,
                        decision,
                    }))?;
                }
            }
            Ok(())
        };
        for node in &self.nodes {
            close(&mut open, node.depth, &mut visit)?;
            if let Some(parent) = open.last_mut() {
                parent.2 += 1;
            }
            visit(Walk::Node(node))?;
            if let NodeKind::Choice { .. } = node.kind {
                open.push((node.id, node.depth, 0));
            }
        }
        if self.truncated {
            return Ok(());
        }
        close(&mut open, 0, &mut visit)
    }

    /// The tree in Graphviz's DOT language, drawn as Oz's Explorer draws
    /// it: choices are blue circles, failed leaves red squares, solutions
    /// green diamonds (labelled with their number), unexplored branches
    /// dashed grey triangles. Edges carry the decisions; a failed leaf's
    /// tooltip names the constraint that failed. Stable to the byte, as the
    /// text.
    pub fn to_dot(&self) -> String {
        let mut out = String::new();
        self.write_dot(&mut out).expect("writing to a String");
        out
    }

    fn write_dot(&self, out: &mut String) -> fmt::Result {
        writeln!(out, "digraph tree {{")?;
        writeln!(out, "  // bitfd-tree {FORMAT_VERSION}; {}", self.settings)?;
        writeln!(
            out,
            "  // {}",
            Footer {
                stats: self.stats(),
                status: self.status
            }
        )?;
        if let Some(truncation) = self.truncation() {
            // A comment for tools, and a label that shows in the drawing.
            writeln!(out, "  // {truncation}")?;
            writeln!(
                out,
                "  label=\"{truncation}: the nodes after these were not recorded\";"
            )?;
            writeln!(out, "  labelloc=b;")?;
        }
        writeln!(out, "  node [label=\"\", style=filled, fontsize=10];")?;
        writeln!(out, "  edge [fontsize=9];")?;
        let mut unexplored = 0u64;
        if self.root_unexplored() {
            writeln!(
                out,
                "  u0 [shape=triangle, width=0.3, style=dashed, color=grey, tooltip=\"unexplored\"];"
            )?;
        }
        self.walk(|event| {
            let (id, parent, decision) = match event {
                Walk::Node(node) => {
                    let id = format!("n{}", node.id);
                    match node.kind {
                        NodeKind::Choice { .. } => writeln!(
                            out,
                            "  {id} [shape=circle, width=0.3, fillcolor=\"#6495ed\"];"
                        )?,
                        NodeKind::Failed { by } => {
                            let why = match by {
                                Some(c) => self.legend.describe(c).into_owned(),
                                None => "the decision".to_owned(),
                            };
                            writeln!(
                                out,
                                "  {id} [shape=square, width=0.25, fillcolor=\"#dc143c\", tooltip=\"failed by {}\"];",
                                dot_escape(&why)
                            )?;
                        }
                        NodeKind::Solution { index } => writeln!(
                            out,
                            "  {id} [shape=diamond, width=0.4, fillcolor=\"#32cd32\", label=\"{index}\"];"
                        )?,
                    }
                    (id, node.parent, node.decision)
                }
                Walk::Unexplored(u) => {
                    let id = format!("u{unexplored}");
                    unexplored += 1;
                    writeln!(
                        out,
                        "  {id} [shape=triangle, width=0.3, style=dashed, color=grey, tooltip=\"unexplored\"];"
                    )?;
                    (id, Some(u.parent), Some(u.decision))
                }
            };
            if let (Some(parent), Some(decision)) = (parent, decision) {
                writeln!(
                    out,
                    "  n{parent} -> {id} [label=\"{}\"];",
                    dot_escape(&self.legend.decision(decision))
                )?;
            }
            Ok(())
        })?;
        writeln!(out, "}}")
    }

    /// The tree as JSON (see [`Serialize`](serde::Serialize) below for the
    /// shape), pretty-printed with two-space indents. Stable to the byte, as
    /// the text.
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a tree always serializes")
    }
}

/// One step of [`Tree::walk`].
enum Walk<'t> {
    Node(&'t Node),
    Unexplored(Unexplored),
}

/// The footer's text, without the `# `.
struct Footer {
    stats: TreeStats,
    status: Option<SearchStatus>,
}

impl fmt::Display for Footer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.stats;
        write!(
            f,
            "nodes {}; choices {}; failures {}; solutions {}; max depth {}; status ",
            s.nodes, s.choices, s.failures, s.solutions, s.max_depth
        )?;
        match self.status {
            Some(status) => write!(f, "{status}"),
            None => f.write_str("unfinished"),
        }
    }
}

/// Escapes a DOT string's body: backslashes, quotes and line breaks.
fn dot_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            _ => out.push(ch),
        }
    }
    out
}

impl fmt::Display for Tree {
    /// The text format of the [module docs](self): a header, one line a
    /// node, a footer.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "# bitfd-tree {FORMAT_VERSION}; {}", self.settings)?;
        if self.root_unexplored() {
            f.write_str("root  unexplored\n")?;
        }
        self.walk(|event| {
            let (depth, decision) = match event {
                Walk::Node(node) => (node.depth, node.decision),
                Walk::Unexplored(u) => {
                    let depth = self.nodes[u.parent as usize].depth + 1;
                    (depth, Some(u.decision))
                }
            };
            for _ in 0..depth {
                f.write_str("  ")?;
            }
            match decision {
                Some(d) => self.legend.write_decision(f, d)?,
                None => f.write_str("root")?,
            }
            f.write_str("  ")?;
            match event {
                Walk::Node(node) => match node.kind {
                    NodeKind::Choice { .. } => f.write_str("choice")?,
                    NodeKind::Failed { by: Some(c) } => {
                        write!(f, "failed by {}", self.legend.describe(c))?;
                    }
                    NodeKind::Failed { by: None } => {
                        f.write_str("failed by the decision or a nogood")?
                    }
                    NodeKind::Solution { index } => write!(f, "solution {index}")?,
                },
                Walk::Unexplored(_) => f.write_str("unexplored")?,
            }
            f.write_str("\n")
        })?;
        if let Some(truncation) = self.truncation() {
            writeln!(f, "# {truncation}: the nodes after these were not recorded")?;
        }
        writeln!(
            f,
            "# {}",
            Footer {
                stats: self.stats(),
                status: self.status
            }
        )
    }
}

impl Observer for Tree {
    #[inline]
    fn node(&mut self, node: &Node) {
        // A new root, or any node after the end of a search: a new search.
        // Drop the last one's nodes.
        if node.id == 0 || self.status.is_some() {
            self.clear();
        }
        debug_assert_eq!(node.id, self.stats.nodes, "nodes come in order");
        let s = &mut self.stats;
        s.nodes += 1;
        s.max_depth = s.max_depth.max(node.depth);
        match node.kind {
            NodeKind::Choice { .. } => s.choices += 1,
            NodeKind::Failed { .. } => s.failures += 1,
            NodeKind::Solution { .. } => s.solutions += 1,
        }
        if (self.nodes.len() as u64) < self.limit {
            self.nodes.push(*node);
        } else {
            self.truncated = true;
        }
    }

    fn finished(&mut self, status: SearchStatus) {
        // A second end with no node between: a search that stopped before
        // its root (a node limit of 0).
        if self.status.is_some() {
            self.clear();
        }
        self.status = Some(status);
    }
}

#[cfg(feature = "serde")]
fn display<T: fmt::Display, S: serde::Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

#[cfg(feature = "serde")]
mod json {
    //! The JSON shape of a [`Tree`]: plain data with names and descriptions
    //! resolved, so a tool needs nothing but the file.

    use serde::ser::{Serialize, Serializer};

    use super::{FORMAT_VERSION, Tree, TreeSettings, TreeStats, Walk};
    use crate::observer::{Decision, NodeKind};

    #[derive(serde::Serialize)]
    struct JsonTree<'t> {
        format: &'static str,
        version: u32,
        settings: &'t TreeSettings,
        stats: TreeStats,
        status: String,
        nodes: Vec<JsonNode>,
        unexplored: Vec<JsonUnexplored>,
        /// For a truncated tree: the budget, the number of nodes recorded.
        #[serde(skip_serializing_if = "Option::is_none")]
        truncated_at: Option<u64>,
        /// For a truncated tree: `truncated at N nodes: ...`.
        #[serde(skip_serializing_if = "Option::is_none")]
        truncated: Option<String>,
    }

    #[derive(serde::Serialize)]
    struct JsonDecision {
        var: String,
        op: &'static str,
        value: u8,
    }

    #[derive(serde::Serialize)]
    struct JsonNode {
        id: u64,
        parent: Option<u64>,
        depth: u32,
        decision: Option<JsonDecision>,
        /// `choice`, `failed` or `solution`.
        kind: &'static str,
        /// For a failed node: the constraint's index, if a constraint failed.
        #[serde(skip_serializing_if = "Option::is_none")]
        constraint: Option<usize>,
        /// For a failed node: the constraint's description.
        #[serde(skip_serializing_if = "Option::is_none")]
        failed_by: Option<String>,
        /// For a solution: its number.
        #[serde(skip_serializing_if = "Option::is_none")]
        solution: Option<u64>,
    }

    #[derive(serde::Serialize)]
    struct JsonUnexplored {
        parent: u64,
        decision: JsonDecision,
    }

    impl Tree {
        fn json_decision(&self, d: Decision) -> JsonDecision {
            JsonDecision {
                var: self.legend.names.get(d.var.index()).to_owned(),
                op: d.op.symbol(),
                value: d.value,
            }
        }
    }

    /// `{"format": "bitfd-tree", "version": 1, "settings": {...}, "stats":
    /// {...}, "status": "complete", "nodes": [{"id", "parent", "depth",
    /// "decision": {"var", "op", "value"} | null, "kind", ...}],
    /// "unexplored": [{"parent", "decision"}]}`. A failed node adds
    /// `constraint` (its index in posting order) and `failed_by` (its
    /// description); a solution adds `solution` (its number).
    impl Serialize for Tree {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut nodes = Vec::with_capacity(self.nodes.len());
            let mut unexplored = Vec::new();
            self.walk(|event| {
                match event {
                    Walk::Node(node) => {
                        let (kind, constraint, solution) = match node.kind {
                            NodeKind::Choice { .. } => ("choice", None, None),
                            NodeKind::Failed { by } => ("failed", by, None),
                            NodeKind::Solution { index } => ("solution", None, Some(index)),
                        };
                        nodes.push(JsonNode {
                            id: node.id,
                            parent: node.parent,
                            depth: node.depth,
                            decision: node.decision.map(|d| self.json_decision(d)),
                            kind,
                            constraint: constraint.map(|c| c.index()),
                            failed_by: match node.kind {
                                NodeKind::Failed { by: Some(c) } => {
                                    Some(self.legend.constraints[c.index()].to_string())
                                }
                                NodeKind::Failed { by: None } => Some("the decision".to_owned()),
                                _ => None,
                            },
                            solution,
                        });
                    }
                    Walk::Unexplored(u) => unexplored.push(JsonUnexplored {
                        parent: u.parent,
                        decision: self.json_decision(u.decision),
                    }),
                }
                Ok::<(), std::convert::Infallible>(())
            })
            .expect("infallible");
            JsonTree {
                format: "bitfd-tree",
                version: FORMAT_VERSION,
                settings: &self.settings,
                stats: self.stats(),
                status: match self.status {
                    Some(status) => status.to_string(),
                    None => "unfinished".to_owned(),
                },
                nodes,
                unexplored,
                truncated_at: self.truncated.then_some(self.limit),
                truncated: self
                    .truncation()
                    .map(|t| format!("{t}: the nodes after these were not recorded")),
            }
            .serialize(s)
        }
    }
}
