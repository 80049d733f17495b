//! [`Model`]: named variables with initial domains, and labelled constraints.
//!
//! The model is plain data. It validates everything a caller passes when it is
//! passed (names, values, variables of other models, group sizes), so that an
//! [`Engine`](crate::Engine) built from it never meets a malformed constraint.
//! It knows nothing of propagation or search.
//!
//! Invariants, established by the methods that add to a model:
//! * every [`VarId`] in a constraint belongs to this model;
//! * every initial domain is non-empty and every value is in `0..=63`;
//! * names are unique;
//! * an all-different or each-value-held group has at most 64 variables, and
//!   an all-different's shifted domains stay within `0..=63`.

use std::fmt;
use std::hash::BuildHasher;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use hashbrown::hash_table::Entry;
use hashbrown::{DefaultHashBuilder, HashTable};

use crate::domain::Domain;
use crate::ids::{ConstraintId, Group, Tags, VarId};
use crate::propagator::Propagator;

/// How hard an all-different constraint works.
///
/// The two prune differently, so they give different search trees: value is
/// what Oz's `FD.distinct` does, domain is Gecode's `IPL_DOM`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strength {
    /// When a variable is fixed, remove its value from the others.
    Value,
    /// Domain consistency (Régin's matching algorithm): remove every value
    /// that belongs to no solution of the constraint, which includes every
    /// Hall set (k variables whose union holds k values take those values
    /// from everyone else).
    #[default]
    Domain,
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strength::Value => "value",
            Strength::Domain => "domain",
        })
    }
}

/// A constraint as plain data. Post it with [`Model::post`] or one of the
/// shorthand methods ([`Model::equal`], [`Model::all_different`], ...).
///
/// Constants are `i32` and checked when posted: values must lie in `0..=63`,
/// offsets and distances in `-63..=63` and `0..=63`.
#[derive(Clone, Debug)]
#[non_exhaustive]
// An explicit one-byte tag: a match reads it with one load, where the tag
// the compiler packs into the offsets' capacity took five instructions to
// decode, and the engine matches every constraint several times as it loads.
#[repr(u8)]
pub enum Constraint {
    /// `x = y`.
    Equal {
        /// Left side.
        x: VarId,
        /// Right side.
        y: VarId,
    },
    /// `x = v`.
    EqualValue {
        /// The variable.
        x: VarId,
        /// The value, `0..=63`.
        v: i32,
    },
    /// `x != y`.
    NotEqual {
        /// Left side.
        x: VarId,
        /// Right side.
        y: VarId,
    },
    /// `x != v`.
    NotEqualValue {
        /// The variable.
        x: VarId,
        /// The value, `0..=63`.
        v: i32,
    },
    /// `x ∈ set`.
    InSet {
        /// The variable.
        x: VarId,
        /// The allowed values.
        set: Domain,
    },
    /// `x = y + c`.
    Offset {
        /// Left side.
        x: VarId,
        /// Right side's variable.
        y: VarId,
        /// Right side's constant, `-63..=63`.
        c: i32,
    },
    /// `|x - y| = c`.
    Distance {
        /// First variable.
        x: VarId,
        /// Second variable.
        y: VarId,
        /// The distance, `0..=63`.
        c: i32,
    },
    /// `|x - y| != c`.
    NotDistance {
        /// First variable.
        x: VarId,
        /// Second variable.
        y: VarId,
        /// The forbidden distance, `0..=63`.
        c: i32,
    },
    /// `x < y + c`: with `c = 0` this is `x < y`, with `c = 1` it is `x <= y`.
    Less {
        /// Left side.
        x: VarId,
        /// Right side's variable.
        y: VarId,
        /// Right side's constant, `-63..=63`.
        c: i32,
    },
    /// `vars[i] + offsets[i]` pairwise different (offsets all zero when empty).
    AllDifferent {
        /// The variables, at most 64 (posted, the model copies them into
        /// its own list of every group's variables; [`Model::constraint`]
        /// copies them out).
        vars: Box<[VarId]>,
        /// One offset a variable, or empty for none.
        offsets: Vec<i32>,
        /// How hard to prune.
        strength: Strength,
    },
    /// Every value of `values` is taken by at least one of `vars`.
    EachValueHeld {
        /// The variables, at most 64 (as for [`Constraint::AllDifferent`]).
        vars: Box<[VarId]>,
        /// The values that must each be taken; at most `vars.len()` of them.
        values: Domain,
    },
    /// A propagator written by the user; see [`Propagator`].
    Custom(Arc<dyn Propagator + Send + Sync>),
}

impl Constraint {
    /// A short name for the constraint's kind, as traces print it.
    pub fn kind(&self) -> &'static str {
        match self {
            Constraint::Equal { .. } | Constraint::EqualValue { .. } => "equal",
            Constraint::NotEqual { .. } | Constraint::NotEqualValue { .. } => "not-equal",
            Constraint::InSet { .. } => "in-set",
            Constraint::Offset { .. } => "offset",
            Constraint::Distance { .. } => "distance",
            Constraint::NotDistance { .. } => "not-distance",
            Constraint::Less { .. } => "less",
            Constraint::AllDifferent { .. } => "all-different",
            Constraint::EachValueHeld { .. } => "each-value-held",
            Constraint::Custom(p) => p.name(),
        }
    }

    /// The variables the constraint mentions, in the order it names them
    /// (for a custom propagator, in the order it subscribes, each once).
    pub fn vars(&self) -> Vec<VarId> {
        let mut vars = Vec::new();
        self.for_each_var(|x| vars.push(x));
        if let Constraint::Custom(_) = self {
            let mut seen = Vec::with_capacity(vars.len());
            vars.retain(|v| {
                let new = !seen.contains(v);
                seen.push(*v);
                new
            });
        }
        vars
    }

    /// Calls `f` on each variable the constraint mentions, without
    /// allocating (except for a custom propagator's subscriptions).
    fn for_each_var(&self, mut f: impl FnMut(VarId)) {
        match self {
            Constraint::Equal { x, y }
            | Constraint::NotEqual { x, y }
            | Constraint::Offset { x, y, .. }
            | Constraint::Distance { x, y, .. }
            | Constraint::NotDistance { x, y, .. }
            | Constraint::Less { x, y, .. } => {
                f(*x);
                f(*y);
            }
            Constraint::EqualValue { x, .. }
            | Constraint::NotEqualValue { x, .. }
            | Constraint::InSet { x, .. } => f(*x),
            Constraint::AllDifferent { vars, .. } | Constraint::EachValueHeld { vars, .. } => {
                vars.iter().copied().for_each(f);
            }
            Constraint::Custom(p) => {
                let mut subs = crate::propagator::Subscriptions::collecting();
                p.subscribe(&mut subs);
                subs.take().for_each(|(x, _)| f(x));
            }
        }
    }

    /// Whether the constraint holds when every variable `v` takes
    /// `value(v)`; `None` for a custom propagator that does not say.
    pub fn holds(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        let val = |x: &VarId| i32::from(value(*x));
        Some(match self {
            Constraint::Equal { x, y } => val(x) == val(y),
            Constraint::EqualValue { x, v } => val(x) == *v,
            Constraint::NotEqual { x, y } => val(x) != val(y),
            Constraint::NotEqualValue { x, v } => val(x) != *v,
            Constraint::InSet { x, set } => set.contains(val(x) as u32),
            Constraint::Offset { x, y, c } => val(x) == val(y) + c,
            Constraint::Distance { x, y, c } => (val(x) - val(y)).abs() == *c,
            Constraint::NotDistance { x, y, c } => (val(x) - val(y)).abs() != *c,
            Constraint::Less { x, y, c } => val(x) < val(y) + c,
            Constraint::AllDifferent { vars, offsets, .. } => {
                all_different_holds(vars, offsets, value)
            }
            Constraint::EachValueHeld { vars, values } => {
                each_value_held_holds(vars, *values, value)
            }
            Constraint::Custom(p) => return p.check(value),
        })
    }
}

/// Whether `vars[i] + offsets[i]` (offsets all zero when empty) are
/// pairwise different when every variable `v` takes `value(v)`.
fn all_different_holds(vars: &[VarId], offsets: &[i32], value: &dyn Fn(VarId) -> u8) -> bool {
    let shifted = |i: usize| i32::from(value(vars[i])) + offsets.get(i).copied().unwrap_or(0);
    (0..vars.len()).all(|i| (0..i).all(|j| shifted(i) != shifted(j)))
}

/// Whether every value of `values` is taken by one of `vars` when every
/// variable `v` takes `value(v)`.
fn each_value_held_holds(vars: &[VarId], values: Domain, value: &dyn Fn(VarId) -> u8) -> bool {
    values.iter().all(|v| vars.iter().any(|&x| value(x) == v))
}

/// No offsets: the [`Posted::AllDifferent`] of a plain all-different.
pub(crate) const NO_OFFSETS: u32 = u32::MAX;

/// A constraint as a [`Model`] keeps it: copyable data with no drop glue,
/// 24 bytes, where a [`Constraint`] owns its group's list. A group's
/// variables are in the model's list of every group's variables (in
/// posting order, each group in a place of its own), an all-different's
/// offsets in its list of offsets, a user's propagator in its list of
/// those. So a model's groups take one allocation, not one each, and
/// dropping a model frees its lists without visiting its constraints.
#[derive(Clone, Copy, Debug)]
// As for `Constraint`: a one-byte tag read by one load.
#[repr(u8)]
pub(crate) enum Posted {
    Equal {
        x: VarId,
        y: VarId,
    },
    EqualValue {
        x: VarId,
        v: i32,
    },
    NotEqual {
        x: VarId,
        y: VarId,
    },
    NotEqualValue {
        x: VarId,
        v: i32,
    },
    InSet {
        x: VarId,
        set: Domain,
    },
    Offset {
        x: VarId,
        y: VarId,
        c: i32,
    },
    Distance {
        x: VarId,
        y: VarId,
        c: i32,
    },
    NotDistance {
        x: VarId,
        y: VarId,
        c: i32,
    },
    Less {
        x: VarId,
        y: VarId,
        c: i32,
    },
    /// Offsets `offsets..offsets + vars.len` in the model's list of them,
    /// or [`NO_OFFSETS`].
    AllDifferent {
        strength: Strength,
        vars: Group,
        offsets: u32,
    },
    EachValueHeld {
        vars: Group,
        values: Domain,
    },
    /// The user's propagator at this place in the model's list of them.
    Custom(u32),
}

// Small enough that posting one is a few stores.
const _: () = assert!(std::mem::size_of::<Posted>() == 24);

impl Posted {
    /// How many variable occurrences the constraint has (a custom
    /// propagator counts as none: it says so only when subscribing).
    pub(crate) fn arity(&self) -> usize {
        match self {
            Posted::Equal { .. }
            | Posted::NotEqual { .. }
            | Posted::Offset { .. }
            | Posted::Distance { .. }
            | Posted::NotDistance { .. }
            | Posted::Less { .. } => 2,
            Posted::EqualValue { .. } | Posted::NotEqualValue { .. } | Posted::InSet { .. } => 1,
            Posted::AllDifferent { vars, .. } | Posted::EachValueHeld { vars, .. } => vars.len(),
            Posted::Custom(_) => 0,
        }
    }
}

/// What is wrong with something passed to a [`Model`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelError {
    /// A variable with this name already exists.
    DuplicateName {
        /// The name given twice.
        name: String,
    },
    /// No variable has this name.
    UnknownName {
        /// The name looked up.
        name: String,
    },
    /// A value or constant lies outside the range it must have.
    ValueOutOfRange {
        /// The value given.
        value: i64,
        /// What the value is for, and its range.
        what: &'static str,
    },
    /// A variable was declared with no possible value.
    EmptyDomain {
        /// The variable's name.
        name: String,
    },
    /// A variable made by another model was passed to this one.
    ForeignVariable {
        /// The variable's index in its own model.
        index: usize,
    },
    /// An each-value-held constraint asks more values to be held than its
    /// variables can take (each variable takes one value).
    UncoverableValues {
        /// The number of values that must be held.
        values: u32,
        /// The number of variables in the group.
        vars: usize,
    },
    /// A group constraint has more variables than its limit.
    TooManyVariables {
        /// The number given.
        found: usize,
        /// The limit.
        limit: usize,
    },
    /// A user's propagator asks for more state words than one may keep
    /// ([`MAX_STATE_WORDS`]), or the model's propagators together for more
    /// than [`MAX_MODEL_STATE_WORDS`]: each is copied at every search level.
    StateTooLarge {
        /// The words asked for.
        words: usize,
        /// The limit.
        limit: usize,
    },
    /// An all-different got a different number of offsets than variables.
    OffsetCountMismatch {
        /// The number of variables.
        vars: usize,
        /// The number of offsets.
        offsets: usize,
    },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::DuplicateName { name } => {
                write!(f, "a variable named `{name}` already exists")
            }
            ModelError::UnknownName { name } => write!(f, "no variable is named `{name}`"),
            ModelError::ValueOutOfRange { value, what } => {
                write!(f, "{value} is out of range for {what}")
            }
            ModelError::EmptyDomain { name } => {
                write!(f, "variable `{name}` has an empty initial domain")
            }
            ModelError::ForeignVariable { index } => {
                write!(f, "variable #{index} belongs to another model")
            }
            ModelError::UncoverableValues { values, vars } => write!(
                f,
                "{values} values must each be held, but the group has only {vars} variables"
            ),
            ModelError::TooManyVariables { found, limit } => {
                write!(f, "{found} variables in one group, the limit is {limit}")
            }
            ModelError::OffsetCountMismatch { vars, offsets } => {
                write!(f, "{vars} variables but {offsets} offsets")
            }
            ModelError::StateTooLarge { words, limit } => {
                write!(f, "{words} words of propagator state, the limit is {limit}")
            }
        }
    }
}

impl std::error::Error for ModelError {}

/// The most variables an all-different or each-value-held group may have:
/// the group is handled with one bit a variable.
pub const MAX_GROUP: usize = 64;

/// The most state words one user's propagator may keep
/// ([`Propagator::state_words`]).
pub const MAX_STATE_WORDS: usize = 1 << 16;

/// The most state words a model's user propagators may keep together.
pub const MAX_MODEL_STATE_WORDS: usize = 1 << 20;

/// The tag the next model gets: each model has its own, so that its
/// [`VarId`]s are told apart from another model's.
static NEXT_MODEL: AtomicU32 = AtomicU32::new(0);

/// A tag no other model of this process has been given (until the `u32`
/// tags wrap around, after four billion models).
fn next_tag() -> u32 {
    NEXT_MODEL.fetch_add(1, Ordering::Relaxed)
}

/// Variables with their initial domains, and the constraints on them.
///
/// ```
/// use bitfd::{Model, SearchOptions, Solver};
///
/// let mut m = Model::new();
/// let x = m.int_var("x", 1, 3)?;
/// let y = m.int_var("y", 1, 3)?;
/// let c = m.less(x, y)?; // x < y
/// m.set_label(c, "x is left of y");
/// let outcome = Solver::new(&m).all(&SearchOptions::default());
/// assert_eq!(outcome.solutions.len(), 3); // (1,2) (1,3) (2,3)
/// assert_eq!(outcome.solutions[0].value_of("y"), Some(2));
/// # Ok::<(), bitfd::ModelError>(())
/// ```
pub struct Model {
    /// The tags of this model's handles (see [`Tags`]): a clone gets one of
    /// its own.
    tags: Tags,
    /// The number of variables (the names' count, kept here too: checking
    /// a variable reads it at every post).
    vars: u32,
    /// The variables' names and initial domains (none empty), the model's
    /// own: a solver copies them (see [`Solver::new`](crate::Solver::new)),
    /// so that declaring a variable and clearing the model touch no shared
    /// count (an `Arc` here cost a locked compare-exchange a variable, and a
    /// locked decrement or two at the drop). Boxed: the in-place store is
    /// large to move with the model.
    names: Box<Names>,
    /// The constraints in posting order, each valid for this model.
    constraints: Vec<Posted>,
    /// The variables of every group constraint, one place a constraint, in
    /// posting order (see [`Posted`]).
    group_vars: Vec<VarId>,
    /// The offsets of the all-differents with offsets, in posting order.
    offsets: Vec<i32>,
    /// The user's propagators, in posting order.
    customs: Vec<Arc<dyn Propagator + Send + Sync>>,
    /// Their state words, together (see [`MAX_MODEL_STATE_WORDS`]).
    custom_state_words: usize,
    /// The clues' sentences, shown in traces and trees.
    labels: Labels,
}

/// The constraints' labels, in one string: a model of a puzzle labels
/// every clue, so one allocation serves them all.
#[derive(Clone, Debug, Default)]
struct Labels {
    /// The labels' text, one after another, with the text of labels since
    /// replaced among them (at most as much as the live text, see
    /// [`Labels::set`]).
    text: String,
    /// Where each constraint's label lies in `text`, by constraint index:
    /// no longer than the model's constraints (a constraint past its end
    /// has no label).
    spans: Vec<Option<Range<usize>>>,
    /// The bytes of `text` that some span covers.
    live: usize,
}

impl Labels {
    /// The label of constraint `c`, if it has one.
    fn get(&self, c: usize) -> Option<&str> {
        let span = self.spans.get(c)?.clone()?;
        Some(&self.text[span])
    }

    /// Labels constraint `c` of `constraints` with `label`. A replaced
    /// label's text stays behind until it would make up more than half of
    /// `text`; then the live labels are copied into a new string, so that
    /// relabelling never grows the store past twice its live text.
    fn set(&mut self, c: usize, constraints: usize, label: &str) {
        if self.spans.len() <= c {
            self.spans.resize(constraints, None);
        }
        if let Some(old) = self.spans[c].take() {
            self.live -= old.len();
            if self.text.len() - self.live > self.live + label.len() {
                self.compact();
            }
        }
        let start = self.text.len();
        self.text.push_str(label);
        self.spans[c] = Some(start..self.text.len());
        self.live += label.len();
    }

    /// Copies the live labels into a new string, in constraint order.
    #[cold]
    fn compact(&mut self) {
        let mut text = String::with_capacity(self.live);
        for span in self.spans.iter_mut().flatten() {
            let start = text.len();
            text.push_str(&self.text[span.clone()]);
            *span = start..text.len();
        }
        self.text = text;
    }

    /// Room for `constraints` labels of `bytes` in all.
    fn reserve(&mut self, constraints: usize, bytes: usize) {
        self.spans
            .reserve(constraints.saturating_sub(self.spans.len()));
        self.text.reserve(bytes);
    }

    /// Drops every label, keeping the storage.
    fn clear(&mut self) {
        self.text.clear();
        self.spans.clear();
        self.live = 0;
    }
}

/// A clone owns every variable and constraint the model has now, and gets
/// a tag of its own: a variable or constraint either makes later is
/// foreign to the other (see [`VarId`]).
impl Clone for Model {
    fn clone(&self) -> Model {
        Model {
            tags: self.tags.fork(
                next_tag(),
                self.vars,
                u32::try_from(self.constraints.len()).expect("fewer than 2^32"),
            ),
            vars: self.vars,
            names: self.names.clone(),
            constraints: self.constraints.clone(),
            group_vars: self.group_vars.clone(),
            offsets: self.offsets.clone(),
            customs: self.customs.clone(),
            custom_state_words: self.custom_state_words,
            labels: self.labels.clone(),
        }
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("vars", &self.len())
            .field("constraints", &self.constraints.len())
            .finish()
    }
}

impl Default for Model {
    fn default() -> Model {
        Model::new()
    }
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model {
            tags: Tags::new(next_tag()),
            vars: 0,
            names: Box::default(),
            constraints: Vec::new(),
            group_vars: Vec::new(),
            offsets: Vec::new(),
            customs: Vec::new(),
            custom_state_words: 0,
            labels: Labels::default(),
        }
    }

    /// An empty model with room for `vars` variables and `constraints`
    /// constraints, so that building it does not reallocate.
    pub fn with_capacity(vars: usize, constraints: usize) -> Model {
        Model {
            tags: Tags::new(next_tag()),
            vars: 0,
            names: Names::boxed_with_capacity(vars),
            constraints: Vec::with_capacity(constraints),
            group_vars: Vec::new(),
            offsets: Vec::new(),
            customs: Vec::new(),
            custom_state_words: 0,
            labels: Labels::default(),
        }
    }

    /// Empties the model, keeping its storage, and gives it a new tag:
    /// the old [`VarId`]s no longer belong to it.
    ///
    /// With [`Solver::load`](crate::Solver::load) this is a generator's
    /// loop: each model is built into the storage of the last and solved by
    /// one solver, so after the first round little is allocated.
    ///
    /// ```
    /// use bitfd::{Model, SearchOptions, Solver, Strength};
    ///
    /// let mut model = Model::new();
    /// let mut solver = Solver::new(&model);
    /// for n in 2..=5 {
    ///     model.clear();
    ///     let xs: Vec<_> = (0..n)
    ///         .map(|i| model.int_var(&format!("x{i}"), 1, n as i64))
    ///         .collect::<Result<_, _>>()?;
    ///     model.all_different(&xs, Strength::Domain)?;
    ///     solver.load(&model);
    ///     let permutations: u64 = (1..=n).product();
    ///     assert_eq!(solver.count(&SearchOptions::default()).stats.solutions, permutations);
    /// }
    /// # Ok::<(), bitfd::ModelError>(())
    /// ```
    pub fn clear(&mut self) {
        self.tags = Tags::new(next_tag());
        self.names.clear();
        self.vars = 0;
        self.constraints.clear();
        self.group_vars.clear();
        self.offsets.clear();
        self.customs.clear();
        self.custom_state_words = 0;
        self.labels.clear();
    }

    /// The tag this model's [`VarId`]s carry.
    pub(crate) fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The number of variables.
    pub fn len(&self) -> usize {
        self.vars as usize
    }

    /// Whether the model has no variables.
    pub fn is_empty(&self) -> bool {
        self.vars == 0
    }

    /// Adds a variable with the values `lo..=hi`.
    ///
    /// # Errors
    ///
    /// [`ModelError::ValueOutOfRange`] if a bound is outside `0..=63`,
    /// [`ModelError::EmptyDomain`] if `lo > hi`, [`ModelError::DuplicateName`]
    /// if the name is taken.
    pub fn int_var(&mut self, name: &str, lo: i64, hi: i64) -> Result<VarId, ModelError> {
        let lo8 = check_value(lo, "a domain bound (0..=63)")?;
        let hi8 = check_value(hi, "a domain bound (0..=63)")?;
        self.var_with_domain(name, Domain::range(lo8, hi8))
    }

    /// Adds a variable whose values are `values`.
    ///
    /// # Errors
    ///
    /// As [`Model::int_var`].
    pub fn var_in(&mut self, name: &str, values: &[i64]) -> Result<VarId, ModelError> {
        let set = domain_of(values)?;
        self.var_with_domain(name, set)
    }

    /// Adds a variable with the given initial domain.
    ///
    /// # Errors
    ///
    /// [`ModelError::EmptyDomain`] if the domain is empty,
    /// [`ModelError::DuplicateName`] if the name is taken.
    pub fn var_with_domain(&mut self, name: &str, domain: Domain) -> Result<VarId, ModelError> {
        // The common case, a small model's next short new name, takes a
        // path without a call; anything else (errors, long names, a model
        // past its in-place store, a name whose filter bit is set) takes
        // the general one, out of line.
        if !domain.is_empty() && self.names.push_new(name, domain) {
            // Read here, not kept from the start: a register the fewer
            // through the copy and the hash. The count cannot overflow:
            // in place there are at most `IN_PLACE` names.
            let index = self.vars;
            self.vars = index + 1;
            return Ok(VarId {
                model: self.tags.own,
                index,
            });
        }
        self.var_with_domain_any(name, domain)
    }

    /// [`Model::var_with_domain`] in any case.
    #[cold]
    #[inline(never)]
    fn var_with_domain_any(&mut self, name: &str, domain: Domain) -> Result<VarId, ModelError> {
        if domain.is_empty() {
            return Err(empty_domain(name));
        }
        let index = self.vars;
        if !self.names.insert(name, domain) {
            return Err(duplicate_name(name));
        }
        self.vars = index.checked_add(1).expect("fewer than 2^32 variables");
        Ok(VarId {
            model: self.tags.own,
            index,
        })
    }

    /// The variable called `name`.
    ///
    /// # Errors
    ///
    /// [`ModelError::UnknownName`] if there is none.
    pub fn var(&self, name: &str) -> Result<VarId, ModelError> {
        self.names
            .find(name)
            .map(|index| self.tags.var(index))
            .ok_or_else(|| ModelError::UnknownName {
                name: name.to_owned(),
            })
    }

    /// The name of `x`.
    ///
    /// # Panics
    ///
    /// If `x` belongs to another model and is out of this one's range.
    pub fn name(&self, x: VarId) -> &str {
        self.assert_own(x);
        self.names.get(x.index())
    }

    /// Whether `c` was posted to this model.
    pub(crate) fn owns_constraint(&self, c: ConstraintId) -> bool {
        self.tags.owns_constraint(c, self.constraints.len())
    }

    /// Panics unless `c` was posted to this model.
    fn assert_own_constraint(&self, c: ConstraintId) {
        assert!(
            self.owns_constraint(c),
            "constraint #{} was not posted to this model",
            c.index()
        );
    }

    /// Panics unless `x` was made by this model.
    fn assert_own(&self, x: VarId) {
        assert!(
            self.owns(x),
            "variable #{} belongs to another model",
            x.index()
        );
    }

    /// The names and initial domains, which a solver copies.
    pub(crate) fn names(&self) -> &Names {
        &self.names
    }

    /// The variables in declaration order.
    pub fn vars(&self) -> impl ExactSizeIterator<Item = VarId> + '_ {
        (0..self.vars).map(|index| self.tags.var(index))
    }

    /// The variable's initial domain.
    ///
    /// # Panics
    ///
    /// If `x` is not a variable of this model.
    pub fn domain(&self, x: VarId) -> Domain {
        self.assert_own(x);
        self.domains()[x.index()]
    }

    /// The initial domains, indexed by [`VarId::index`].
    pub fn domains(&self) -> &[Domain] {
        self.names.domains()
    }

    /// The number of constraints posted.
    pub fn constraint_count(&self) -> usize {
        self.constraints.len()
    }

    /// The constraints in posting order, each with its id, as plain data
    /// (a group's list copied out of the model).
    pub fn constraints(&self) -> impl ExactSizeIterator<Item = (ConstraintId, Constraint)> + '_ {
        self.constraint_ids().map(|id| (id, self.constraint(id)))
    }

    /// The ids of the constraints, in posting order.
    pub fn constraint_ids(&self) -> impl ExactSizeIterator<Item = ConstraintId> + use<> {
        let tags = self.tags.clone();
        (0..self.constraints.len() as u32).map(move |i| tags.constraint(i))
    }

    /// The constraint `c`, as plain data (a group's list copied out of the
    /// model).
    ///
    /// # Panics
    ///
    /// If `c` was not posted to this model.
    pub fn constraint(&self, c: ConstraintId) -> Constraint {
        self.assert_own_constraint(c);
        match self.constraints[c.index()] {
            Posted::Equal { x, y } => Constraint::Equal { x, y },
            Posted::EqualValue { x, v } => Constraint::EqualValue { x, v },
            Posted::NotEqual { x, y } => Constraint::NotEqual { x, y },
            Posted::NotEqualValue { x, v } => Constraint::NotEqualValue { x, v },
            Posted::InSet { x, set } => Constraint::InSet { x, set },
            Posted::Offset { x, y, c } => Constraint::Offset { x, y, c },
            Posted::Distance { x, y, c } => Constraint::Distance { x, y, c },
            Posted::NotDistance { x, y, c } => Constraint::NotDistance { x, y, c },
            Posted::Less { x, y, c } => Constraint::Less { x, y, c },
            Posted::AllDifferent {
                strength,
                vars,
                offsets,
            } => Constraint::AllDifferent {
                vars: self.group(vars).into(),
                offsets: self.offsets_of(vars, offsets).to_vec(),
                strength,
            },
            Posted::EachValueHeld { vars, values } => Constraint::EachValueHeld {
                vars: self.group(vars).into(),
                values,
            },
            Posted::Custom(i) => Constraint::Custom(Arc::clone(&self.customs[i as usize])),
        }
    }

    /// The constraints as the model keeps them, in posting order.
    pub(crate) fn posted(&self) -> &[Posted] {
        &self.constraints
    }

    /// The variables of every group constraint (see [`Posted`]).
    pub(crate) fn group_vars(&self) -> &[VarId] {
        &self.group_vars
    }

    /// The variables of the group at `vars`.
    #[inline(always)]
    pub(crate) fn group(&self, vars: Group) -> &[VarId] {
        vars.of(&self.group_vars)
    }

    /// The offsets of an all-different on the group at `vars` with offsets
    /// at `offsets` (see [`Posted::AllDifferent`]): empty for none.
    #[inline(always)]
    pub(crate) fn offsets_of(&self, vars: Group, offsets: u32) -> &[i32] {
        if offsets == NO_OFFSETS {
            &[]
        } else {
            &self.offsets[offsets as usize..][..vars.len()]
        }
    }

    /// The offsets of every all-different that has some (see
    /// [`Posted::AllDifferent`]).
    pub(crate) fn offset_list(&self) -> &[i32] {
        &self.offsets
    }

    /// The user's propagators (see [`Posted::Custom`]).
    pub(crate) fn customs(&self) -> &[Arc<dyn Propagator + Send + Sync>] {
        &self.customs
    }

    /// The label of `c`, if it has one.
    ///
    /// # Panics
    ///
    /// If `c` was not posted to this model.
    pub fn label(&self, c: ConstraintId) -> Option<&str> {
        self.assert_own_constraint(c);
        self.labels.get(c.index())
    }

    /// Room for labels of `bytes` in all on every constraint posted so far,
    /// so that labelling them does not reallocate.
    pub(crate) fn reserve_labels(&mut self, bytes: usize) {
        self.labels.reserve(self.constraints.len(), bytes);
    }

    /// Gives `c` a label (the clue's sentence), shown in traces and trees.
    ///
    /// # Panics
    ///
    /// If `c` was not posted to this model.
    pub fn set_label(&mut self, c: ConstraintId, label: impl AsRef<str>) {
        self.assert_own_constraint(c);
        self.labels
            .set(c.index(), self.constraints.len(), label.as_ref());
    }

    /// The label of `c`, or its kind and variables when it has none:
    /// `less(x, y)`.
    ///
    /// # Panics
    ///
    /// If `c` was not posted to this model.
    pub fn describe(&self, c: ConstraintId) -> String {
        if let Some(label) = self.label(c) {
            return label.to_owned();
        }
        let constraint = self.constraint(c);
        let names: Vec<&str> = constraint.vars().iter().map(|&x| self.name(x)).collect();
        format!("{}({})", constraint.kind(), names.join(", "))
    }

    /// Checks a full assignment (`values[i]` for variable `i`) against every
    /// constraint, independently of any propagator: the first violated
    /// constraint is returned as the error. Custom propagators that cannot
    /// check an assignment are skipped.
    ///
    /// # Errors
    ///
    /// The first constraint, in posting order, that the assignment violates.
    ///
    /// # Panics
    ///
    /// If `values` has fewer entries than the model has variables.
    pub fn check(&self, values: &[u8]) -> Result<(), ConstraintId> {
        assert!(values.len() >= self.len(), "one value per variable");
        let domains = self.domains();
        let in_domains = |x: VarId| domains[x.index()].contains(u32::from(values[x.index()]));
        let value = |x: VarId| values[x.index()];
        for (id, posted) in self.constraint_ids().zip(&self.constraints) {
            // A group's list read in place; any other constraint as data
            // (which copies nothing).
            let holds = match *posted {
                Posted::AllDifferent { vars, offsets, .. } => {
                    let group = self.group(vars);
                    group.iter().all(|&x| in_domains(x))
                        && all_different_holds(group, self.offsets_of(vars, offsets), &value)
                }
                Posted::EachValueHeld { vars, values } => {
                    let group = self.group(vars);
                    group.iter().all(|&x| in_domains(x))
                        && each_value_held_holds(group, values, &value)
                }
                _ => {
                    let c = self.constraint(id);
                    let mut fits = true;
                    c.for_each_var(|x| fits &= in_domains(x));
                    fits && c.holds(&value) != Some(false)
                }
            };
            if !holds {
                return Err(id);
            }
        }
        Ok(())
    }

    /// Posts a constraint, after checking it.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model,
    /// [`ModelError::ValueOutOfRange`] for a constant outside its range, and
    /// the group errors of [`Model::all_different`] and
    /// [`Model::each_value_held`].
    pub fn post(&mut self, constraint: Constraint) -> Result<ConstraintId, ModelError> {
        self.validate(&constraint)?;
        let posted = match constraint {
            Constraint::Equal { x, y } => Posted::Equal { x, y },
            Constraint::EqualValue { x, v } => Posted::EqualValue { x, v },
            Constraint::NotEqual { x, y } => Posted::NotEqual { x, y },
            Constraint::NotEqualValue { x, v } => Posted::NotEqualValue { x, v },
            Constraint::InSet { x, set } => Posted::InSet { x, set },
            Constraint::Offset { x, y, c } => Posted::Offset { x, y, c },
            Constraint::Distance { x, y, c } => Posted::Distance { x, y, c },
            Constraint::NotDistance { x, y, c } => Posted::NotDistance { x, y, c },
            Constraint::Less { x, y, c } => Posted::Less { x, y, c },
            Constraint::AllDifferent {
                vars,
                offsets,
                strength,
            } => {
                let offsets = if offsets.is_empty() {
                    NO_OFFSETS
                } else {
                    let at = u32::try_from(self.offsets.len()).expect("fewer than 2^32");
                    self.offsets.extend_from_slice(&offsets);
                    at
                };
                Posted::AllDifferent {
                    strength,
                    vars: self.add_group(&vars),
                    offsets,
                }
            }
            Constraint::EachValueHeld { vars, values } => Posted::EachValueHeld {
                vars: self.add_group(&vars),
                values,
            },
            Constraint::Custom(p) => {
                let at = u32::try_from(self.customs.len()).expect("fewer than 2^32");
                self.custom_state_words += p.state_words();
                self.customs.push(p);
                Posted::Custom(at)
            }
        };
        Ok(self.push(posted))
    }

    /// Copies the variables of a group constraint into the model's list of
    /// them, returning their place.
    fn add_group(&mut self, vars: &[VarId]) -> Group {
        let start = u32::try_from(self.group_vars.len()).expect("fewer than 2^32");
        if self.group_vars.is_empty() {
            // Room at once for every variable in two groups (a zebra's
            // attribute rows with each-value-held, say), rather than growing
            // from four places by doubling.
            self.group_vars.reserve(vars.len().max(2 * self.len()));
        }
        self.group_vars.extend_from_slice(vars);
        Group {
            start,
            len: vars.len() as u32,
        }
    }

    /// Appends a constraint that has passed [`Model::validate`]'s checks.
    #[inline(always)]
    fn push(&mut self, constraint: Posted) -> ConstraintId {
        let id = ConstraintId::new(
            self.tags.own,
            u32::try_from(self.constraints.len()).expect("fewer than 2^32"),
        );
        self.constraints.push(constraint);
        id
    }

    fn validate(&self, constraint: &Constraint) -> Result<(), ModelError> {
        let mut foreign = None;
        constraint.for_each_var(|x| {
            if foreign.is_none() && !self.owns(x) {
                foreign = Some(x);
            }
        });
        if let Some(x) = foreign {
            return Err(ModelError::ForeignVariable { index: x.index() });
        }
        match constraint {
            Constraint::EqualValue { v, .. } | Constraint::NotEqualValue { v, .. } => {
                check_value(i64::from(*v), "a value (0..=63)")?;
            }
            Constraint::Offset { c, .. } | Constraint::Less { c, .. } => {
                check_offset(*c)?;
            }
            Constraint::Distance { c, .. } | Constraint::NotDistance { c, .. } => {
                check_value(i64::from(*c), "a distance (0..=63)")?;
            }
            Constraint::AllDifferent { vars, offsets, .. } => {
                check_group(vars.len())?;
                if !offsets.is_empty() && offsets.len() != vars.len() {
                    return Err(ModelError::OffsetCountMismatch {
                        vars: vars.len(),
                        offsets: offsets.len(),
                    });
                }
                for (x, &o) in vars.iter().zip(offsets) {
                    check_offset(o)?;
                    // The shifted values are what the propagator compares, so
                    // they must stay representable.
                    let d = self.domains()[x.index()];
                    let (lo, hi) = (d.min().unwrap_or(0), d.max().unwrap_or(0));
                    for end in [i64::from(lo) + i64::from(o), i64::from(hi) + i64::from(o)] {
                        check_value(end, "a shifted all-different value (0..=63)")?;
                    }
                }
            }
            Constraint::EachValueHeld { vars, values } => {
                check_group(vars.len())?;
                if values.size() as usize > vars.len() {
                    return Err(ModelError::UncoverableValues {
                        values: values.size(),
                        vars: vars.len(),
                    });
                }
            }
            Constraint::Custom(p) => {
                let words = p.state_words();
                if words > MAX_STATE_WORDS {
                    return Err(ModelError::StateTooLarge {
                        words,
                        limit: MAX_STATE_WORDS,
                    });
                }
                let total = self.custom_state_words + words;
                if total > MAX_MODEL_STATE_WORDS {
                    return Err(ModelError::StateTooLarge {
                        words: total,
                        limit: MAX_MODEL_STATE_WORDS,
                    });
                }
            }
            Constraint::Equal { .. } | Constraint::NotEqual { .. } | Constraint::InSet { .. } => {}
        }
        Ok(())
    }

    /// Whether `x` is a variable of this model.
    #[inline]
    fn owns(&self, x: VarId) -> bool {
        self.tags.owns_var(x, self.vars as usize)
    }

    #[inline(always)]
    fn check_var(&self, x: VarId) -> Result<(), ModelError> {
        if self.owns(x) {
            Ok(())
        } else {
            Err(ModelError::ForeignVariable { index: x.index() })
        }
    }

    /// [`Model::check_var`] on each of `vars`: the error names the first
    /// foreign one.
    fn check_vars(&self, vars: &[VarId]) -> Result<(), ModelError> {
        // No early exit on the common path: a branch-free pass over the
        // group, then a search only if it failed.
        if vars.iter().fold(true, |ok, &x| ok & self.owns(x)) {
            return Ok(());
        }
        match vars.iter().find(|&&x| !self.owns(x)) {
            Some(x) => Err(ModelError::ForeignVariable { index: x.index() }),
            None => Ok(()),
        }
    }

    /// Posts a constraint on `x` and `y` whose constant is already checked.
    #[inline(always)]
    fn post_pair(&mut self, x: VarId, y: VarId, c: Posted) -> Result<ConstraintId, ModelError> {
        self.check_var(x)?;
        self.check_var(y)?;
        Ok(self.push(c))
    }

    /// Posts a constraint on `x` alone whose constant is already checked.
    fn post_one(&mut self, x: VarId, c: Posted) -> Result<ConstraintId, ModelError> {
        self.check_var(x)?;
        Ok(self.push(c))
    }

    /// Posts `x = y`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn equal(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.post_pair(x, y, Posted::Equal { x, y })
    }

    /// Posts `x = v`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; `v` must be in `0..=63`.
    pub fn equal_value(&mut self, x: VarId, v: i64) -> Result<ConstraintId, ModelError> {
        let v = i32::from(check_value(v, "a value (0..=63)")?);
        self.post_one(x, Posted::EqualValue { x, v })
    }

    /// Posts `x != y`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn not_equal(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.post_pair(x, y, Posted::NotEqual { x, y })
    }

    /// Posts `x != v`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; `v` must be in `0..=63`.
    pub fn not_equal_value(&mut self, x: VarId, v: i64) -> Result<ConstraintId, ModelError> {
        let v = i32::from(check_value(v, "a value (0..=63)")?);
        self.post_one(x, Posted::NotEqualValue { x, v })
    }

    /// Posts `x ∈ values`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; every value must be in `0..=63`.
    pub fn in_set(&mut self, x: VarId, values: &[i64]) -> Result<ConstraintId, ModelError> {
        let set = domain_of(values)?;
        self.post_one(x, Posted::InSet { x, set })
    }

    /// Posts `x = y + c`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; `c` must be in `-63..=63`.
    pub fn offset(&mut self, x: VarId, y: VarId, c: i64) -> Result<ConstraintId, ModelError> {
        let c = check_offset_i64(c)?;
        self.post_pair(x, y, Posted::Offset { x, y, c })
    }

    /// Posts `|x - y| = c`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; `c` must be in `0..=63`.
    pub fn distance(&mut self, x: VarId, y: VarId, c: i64) -> Result<ConstraintId, ModelError> {
        let c = i32::from(check_value(c, "a distance (0..=63)")?);
        self.post_pair(x, y, Posted::Distance { x, y, c })
    }

    /// Posts `|x - y| != c`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; `c` must be in `0..=63`.
    pub fn not_distance(&mut self, x: VarId, y: VarId, c: i64) -> Result<ConstraintId, ModelError> {
        let c = i32::from(check_value(c, "a distance (0..=63)")?);
        self.post_pair(x, y, Posted::NotDistance { x, y, c })
    }

    /// Posts `x < y + c`; `less_offset(x, y, 1)` is `x <= y`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; `c` must be in `-63..=63`.
    pub fn less_offset(&mut self, x: VarId, y: VarId, c: i64) -> Result<ConstraintId, ModelError> {
        let c = check_offset_i64(c)?;
        self.post_pair(x, y, Posted::Less { x, y, c })
    }

    /// Posts `x < y`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn less(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.less_offset(x, y, 0)
    }

    /// Posts `x <= y`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn less_eq(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.less_offset(x, y, 1)
    }

    /// Posts `x > y` (as `y < x`).
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn greater(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.less_offset(y, x, 0)
    }

    /// Posts `x >= y` (as `y <= x`).
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn greater_eq(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.less_offset(y, x, 1)
    }

    /// Posts that the variables take pairwise different values.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; [`ModelError::TooManyVariables`] for more than 64.
    pub fn all_different(
        &mut self,
        vars: &[VarId],
        strength: Strength,
    ) -> Result<ConstraintId, ModelError> {
        // What `validate` checks, in its order, before the list is made.
        self.check_vars(vars)?;
        check_group(vars.len())?;
        let vars = self.add_group(vars);
        Ok(self.push(Posted::AllDifferent {
            strength,
            vars,
            offsets: NO_OFFSETS,
        }))
    }

    /// Posts that the values `vars[i] + offsets[i]` are pairwise different
    /// (Gecode's `distinct` with offsets: N-queens' diagonals).
    ///
    /// # Errors
    ///
    /// As [`Model::all_different`]; [`ModelError::OffsetCountMismatch`] if the
    /// lengths differ, [`ModelError::ValueOutOfRange`] if a shifted initial
    /// domain leaves `0..=63`.
    pub fn all_different_offsets(
        &mut self,
        vars: &[VarId],
        offsets: &[i64],
        strength: Strength,
    ) -> Result<ConstraintId, ModelError> {
        let offsets = offsets
            .iter()
            .map(|&o| check_offset_i64(o))
            .collect::<Result<Vec<_>, _>>()?;
        if offsets.len() != vars.len() {
            return Err(ModelError::OffsetCountMismatch {
                vars: vars.len(),
                offsets: offsets.len(),
            });
        }
        self.post(Constraint::AllDifferent {
            vars: vars.into(),
            offsets,
            strength,
        })
    }

    /// Posts that every value in `values` is taken by at least one of `vars`
    /// (seed 000's "someone must hold each value").
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; [`ModelError::UncoverableValues`] if there are more
    /// values than variables, [`ModelError::TooManyVariables`] for more than 64
    /// variables.
    pub fn each_value_held(
        &mut self,
        vars: &[VarId],
        values: Domain,
    ) -> Result<ConstraintId, ModelError> {
        // What `validate` checks, in its order, before the list is made.
        self.check_vars(vars)?;
        check_group(vars.len())?;
        if values.size() as usize > vars.len() {
            return Err(ModelError::UncoverableValues {
                values: values.size(),
                vars: vars.len(),
            });
        }
        // Right after an all-different on the same list (as puzzles and
        // sudoku post them), both share one place among the group
        // variables, so the engine sees at a glance that they cover the
        // same variables (see `Permutations::redundant_with`).
        let vars = match self.constraints.last() {
            Some(Posted::AllDifferent { vars: last, .. }) if last.of(&self.group_vars) == vars => {
                *last
            }
            _ => self.add_group(vars),
        };
        Ok(self.push(Posted::EachValueHeld { vars, values }))
    }

    /// Posts a user-written propagator; see [`Propagator`] for the contract.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] if it subscribes to a variable of
    /// another model.
    pub fn post_propagator<P>(&mut self, propagator: P) -> Result<ConstraintId, ModelError>
    where
        P: Propagator + Send + Sync + 'static,
    {
        self.post(Constraint::Custom(Arc::new(propagator)))
    }
}

/// Variable names: one string of bytes and the ends of the names in it, so a model
/// with many variables makes a handful of allocations, not one a name; a
/// small model's names (at most [`IN_PLACE`] of them, [`IN_PLACE_TEXT`]
/// bytes in all) take none. The variables' initial domains are kept beside
/// the names (see [`Store`]).
///
/// A name is found without a hash table while there are few: a filter of
/// 1024 bits, one set for each name by its hash, tells at once that most new
/// names are new, and the rare name whose bit is already set is compared
/// with all the others. Past [`Names::SCAN`] names a hash table takes over,
/// so a large model stays linear.
///
/// Kept over a plain string and hash table because it earns its place:
/// `cargo bench --bench solve -- zebra/classic` (build + all solutions) is
/// about a tenth faster with it.
#[derive(Default)]
pub(crate) struct Names {
    /// The names and where they end.
    store: Store,
    /// Bit `h % 1024` of [`name_hash`] `h` for each of the first
    /// [`Names::SCAN`] names: a name whose bit is clear is not among them.
    seen: [u64; 16],
    /// Empty until a name past the first [`Names::SCAN`] is offered; then
    /// the indices of all the names, hashed by name with `hasher`. Only
    /// looked up, never iterated.
    by_name: HashTable<u32>,
    /// The table's hasher, randomly seeded (a large model's names may come
    /// from anyone), made with the table.
    hasher: Option<DefaultHashBuilder>,
}

/// The most names a [`Store`] keeps in place.
const IN_PLACE: usize = 32;

/// The most bytes of names a [`Store`] keeps in place.
const IN_PLACE_TEXT: usize = 256;

// The filter covers every name kept in place, so that `Names::push_new`
// checks the count once, against `IN_PLACE`.
const _: () = assert!(IN_PLACE <= Names::SCAN);

/// All names, concatenated, and where each ends: name `i` starts where name
/// `i - 1` ends, or at 0; and the variables' initial domains, which are
/// declared with the names and so share their storage (one allocation a
/// model the fewer).
#[expect(
    clippy::large_enum_variant,
    reason = "the large variant is the point: a small model's names in place"
)]
// A fixed layout: with the fields reordered as the compiler likes, the
// in-place store is zeroed on the stack and copied, not zeroed in place.
#[repr(C)]
enum Store {
    /// A few short names, in place: no allocation. The ends and the
    /// domains share one count, so a push checks one bound for both; the
    /// text is bytes (whole names, so UTF-8), which a short name is copied
    /// into by a word or two, where a string's push calls `memcpy`.
    InPlace {
        /// The number of names: `ends[..len]` and `domains[..len]` hold.
        len: u32,
        /// The bytes of names: `text[..text_len]` holds.
        text_len: u32,
        ends: [u32; IN_PLACE],
        domains: [Domain; IN_PLACE],
        text: [u8; IN_PLACE_TEXT],
    },
    /// Any names; a store that outgrows its place moves here for good.
    Heap {
        text: Vec<u8>,
        ends: Vec<u32>,
        domains: Vec<Domain>,
    },
}

impl Default for Store {
    fn default() -> Store {
        Store::InPlace {
            len: 0,
            text_len: 0,
            ends: [0; IN_PLACE],
            domains: [Domain::EMPTY; IN_PLACE],
            text: [0; IN_PLACE_TEXT],
        }
    }
}

impl Store {
    /// Room for `vars` names without moving them (in place if they may fit).
    fn with_capacity(vars: usize) -> Store {
        if vars <= IN_PLACE {
            Store::default()
        } else {
            Store::Heap {
                text: Vec::with_capacity(vars * 8),
                ends: Vec::with_capacity(vars),
                domains: Vec::with_capacity(vars),
            }
        }
    }

    /// The text and the ends.
    #[inline]
    fn parts(&self) -> (&[u8], &[u32]) {
        match self {
            Store::InPlace {
                len,
                text_len,
                ends,
                text,
                ..
            } => (&text[..*text_len as usize], &ends[..*len as usize]),
            Store::Heap { text, ends, .. } => (text, ends),
        }
    }

    /// The number of names (read without the slices [`Store::parts`]
    /// makes, and their bounds checks).
    #[inline]
    fn len(&self) -> usize {
        match self {
            Store::InPlace { len, .. } => *len as usize,
            Store::Heap { ends, .. } => ends.len(),
        }
    }

    /// The initial domains, one a name.
    #[inline]
    fn domains(&self) -> &[Domain] {
        // In place, the count is at most `IN_PLACE`; `min` says so without
        // a branch to a panic (a solver's build reads the domains several
        // times).
        match self {
            Store::InPlace { len, domains, .. } => &domains[..(*len as usize).min(IN_PLACE)],
            Store::Heap { domains, .. } => domains,
        }
    }

    fn clear(&mut self) {
        match self {
            Store::InPlace { len, text_len, .. } => {
                *len = 0;
                *text_len = 0;
            }
            Store::Heap {
                text,
                ends,
                domains,
            } => {
                text.clear();
                ends.clear();
                domains.clear();
            }
        }
    }

    /// Appends `name`, with its variable's initial domain.
    #[inline]
    fn push(&mut self, name: &str, domain: Domain) {
        match self {
            Store::InPlace {
                len,
                text_len,
                ends,
                domains,
                text,
            } => {
                let (i, start) = (*len as usize, *text_len as usize);
                let end = start + name.len();
                if i < IN_PLACE && end <= IN_PLACE_TEXT {
                    text[start..end].copy_from_slice(name.as_bytes());
                    ends[i] = end as u32;
                    domains[i] = domain;
                    *len += 1;
                    *text_len = end as u32;
                    return;
                }
            }
            Store::Heap {
                text,
                ends,
                domains,
            } => {
                text.extend_from_slice(name.as_bytes());
                ends.push(text.len() as u32);
                domains.push(domain);
                return;
            }
        }
        self.move_to_heap_and_push(name, domain);
    }

    /// Moves the names and domains to the heap, then appends `name` and
    /// `domain`.
    #[cold]
    #[inline(never)]
    fn move_to_heap_and_push(&mut self, name: &str, domain: Domain) {
        let (old_text, old_ends) = self.parts();
        let mut text = Vec::with_capacity(2 * (old_text.len() + name.len()));
        let mut ends = Vec::with_capacity(2 * (old_ends.len() + 1));
        let mut domains = Vec::with_capacity(ends.capacity());
        text.extend_from_slice(old_text);
        ends.extend_from_slice(old_ends);
        domains.extend_from_slice(self.domains());
        text.extend_from_slice(name.as_bytes());
        ends.push(text.len() as u32);
        domains.push(domain);
        *self = Store::Heap {
            text,
            ends,
            domains,
        };
    }
}

// A copy writes only the part of the in-place store in use: a solver copies
// its model's names at every build (see `Solver::new`), and a small model
// uses a part of its store (the classic zebra's 25 names, 168 bytes of
// text), where the derived copy would copy the whole store.
impl Clone for Store {
    fn clone(&self) -> Store {
        match self {
            Store::InPlace { .. } => {
                let mut copy = Store::default();
                copy.clone_from(self);
                copy
            }
            Store::Heap {
                text,
                ends,
                domains,
            } => Store::Heap {
                text: text.clone(),
                ends: ends.clone(),
                domains: domains.clone(),
            },
        }
    }

    /// Makes this store a copy of `source`, keeping its allocations: a
    /// store on the heap stays there, whatever the source (a copy is only
    /// read, so it does not need the in-place store's quick push).
    #[inline]
    fn clone_from(&mut self, source: &Store) {
        // In place from in place, the solver's case, without a call (the
        // rest, out of line, at a reload across kinds or of large names).
        let (
            Store::InPlace {
                len,
                text_len,
                ends,
                domains,
                text,
            },
            Store::InPlace {
                len: n,
                text_len: t,
                ends: source_ends,
                domains: source_domains,
                text: source_text,
            },
        ) = (&mut *self, source)
        else {
            return self.clone_from_any(source);
        };
        // The counts are at most the arrays' lengths: `min` says so without
        // a branch to a panic.
        let (n, t) = (
            (*n as usize).min(IN_PLACE),
            (*t as usize).min(IN_PLACE_TEXT),
        );
        ends[..n].copy_from_slice(&source_ends[..n]);
        domains[..n].copy_from_slice(&source_domains[..n]);
        text[..t].copy_from_slice(&source_text[..t]);
        *len = n as u32;
        *text_len = t as u32;
    }
}

impl Store {
    /// [`Store::clone_from`] where either store is on the heap.
    #[cold]
    #[inline(never)]
    fn clone_from_any(&mut self, source: &Store) {
        match (self, source) {
            (
                Store::Heap {
                    text,
                    ends,
                    domains,
                },
                source,
            ) => {
                let (source_text, source_ends) = source.parts();
                let source_domains = source.domains();
                text.clear();
                text.extend_from_slice(source_text);
                ends.clear();
                ends.extend_from_slice(source_ends);
                domains.clear();
                domains.extend_from_slice(source_domains);
            }
            // A store in place and names on the heap: the names' copy.
            (this, source) => *this = source.clone(),
        }
    }
}

impl fmt::Debug for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries((0..self.len()).map(|i| self.get(i)))
            .finish()
    }
}

impl Clone for Names {
    fn clone(&self) -> Names {
        let mut copy = Names::default();
        copy.clone_from(self);
        copy
    }

    /// Makes these names a copy of `source`, keeping their storage (see
    /// [`Store::clone_from`]): a solver's reload allocates nothing once its
    /// storage is as large as the models'.
    #[inline]
    fn clone_from(&mut self, source: &Names) {
        self.store.clone_from(&source.store);
        self.seen = source.seen;
        self.by_name.clone_from(&source.by_name);
        self.hasher.clone_from(&source.hasher);
    }
}

impl Names {
    /// The most names found without the hash table.
    const SCAN: usize = 64;

    /// The number of names.
    fn len(&self) -> usize {
        self.store.len()
    }

    /// [`Names::with_capacity`], boxed. The names of a small model are
    /// built in their allocation (`Box::default` writes them in place,
    /// where `Box::new` builds them on the stack and copies them in: 850
    /// bytes).
    fn boxed_with_capacity(vars: usize) -> Box<Names> {
        if vars <= IN_PLACE {
            Box::default()
        } else {
            Box::new(Names::with_capacity(vars))
        }
    }

    /// No names, with room for `vars` without growing anything (but the
    /// hash table, which a model of more than [`Names::SCAN`] builds).
    fn with_capacity(vars: usize) -> Names {
        Names {
            store: Store::with_capacity(vars),
            seen: [0; 16],
            by_name: HashTable::new(),
            hasher: None,
        }
    }

    fn clear(&mut self) {
        self.store.clear();
        self.seen = [0; 16];
        self.by_name.clear();
    }

    /// Adds `name` as the next variable, whose initial domain is `domain`,
    /// if it is short and new, there is room in place, and that is quick
    /// to tell; false, and nothing added, if not: the name may then still
    /// be new, and [`Names::insert`] tells.
    ///
    /// It makes no call: the store's kind and counts are read and checked
    /// once, for both the filter (in place there are at most
    /// `IN_PLACE <= SCAN` names, so the filter holds them all) and the
    /// copy, and the name's words are loaded once, for both the hash and
    /// the copy.
    #[inline(always)]
    fn push_new(&mut self, name: &str, domain: Domain) -> bool {
        let Store::InPlace {
            len,
            text_len,
            ends,
            domains,
            text,
        } = &mut self.store
        else {
            return false;
        };
        let (i, start) = (*len as usize, *text_len as usize);
        let end = start + name.len();
        // Past 16 bytes a name is copied by `memcpy`: a call.
        if i >= IN_PLACE || end > IN_PLACE_TEXT || name.len() > 16 {
            return false;
        }
        // The name is copied past the text's end before it is known to be
        // new (a refused one is left there, unread, to be overwritten).
        let (word, bit) = filter_bit(put_hashed(&mut text[start..end], name.as_bytes()));
        // A set bit: the name may be taken, which the general path tells by
        // comparing it with the others (and the bit stays as it is).
        if self.seen[word] & bit != 0 {
            return false;
        }
        self.seen[word] |= bit;
        ends[i] = end as u32;
        domains[i] = domain;
        *len += 1;
        *text_len = end as u32;
        true
    }

    /// Adds `name` as the next variable, whose initial domain is `domain`;
    /// false, and nothing added, if the name is taken.
    fn insert(&mut self, name: &str, domain: Domain) -> bool {
        if self.len() < Names::SCAN {
            let (word, bit) = filter_bit(name_hash(name));
            // Set at once: if the name is taken, its bit was set already.
            let before = self.seen[word];
            self.seen[word] = before | bit;
            if before & bit != 0 && self.taken(name) {
                return false;
            }
        } else if !self.index(name) {
            return false;
        }
        self.store.push(name, domain);
        true
    }

    /// The variables' initial domains, in declaration order.
    #[inline]
    fn domains(&self) -> &[Domain] {
        self.store.domains()
    }

    /// Enters `name` in the hash table as the next variable, which there
    /// are more than [`Names::SCAN`] of; false if the name is taken.
    // Out of line: a small model never calls it.
    #[inline(never)]
    fn index(&mut self, name: &str) -> bool {
        let Names {
            store,
            by_name,
            hasher,
            ..
        } = self;
        let hasher = &*hasher.get_or_insert_with(DefaultHashBuilder::default);
        let (text, ends) = store.parts();
        let rehash = |&i: &u32| hasher.hash_one(slice(text, ends, i as usize));
        let name = name.as_bytes();
        if by_name.is_empty() {
            // The first name past the filter (since the names were
            // cleared): index all the others. (Not "32 names so far": a
            // name refused then leaves them 32, and the next one would
            // index them all again.)
            by_name.reserve(2 * Names::SCAN, rehash);
            for i in 0..Names::SCAN as u32 {
                by_name.insert_unique(rehash(&i), i, rehash);
            }
        }
        // One hash and one probe sequence for both the lookup and the insert.
        let entry = by_name.entry(
            hasher.hash_one(name),
            |&i| slice(text, ends, i as usize) == name,
            rehash,
        );
        let Entry::Vacant(slot) = entry else {
            return false;
        };
        slot.insert(ends.len() as u32);
        true
    }

    /// Whether `name` is among the names, by comparing it with every one:
    /// the rare insert whose filter bit was set already. Out of line, so
    /// the common insert carries neither the loop nor its registers.
    #[cold]
    #[inline(never)]
    fn taken(&self, name: &str) -> bool {
        self.scan(name).is_some()
    }

    /// The index of the name `name`, by comparing it with every name.
    fn scan(&self, name: &str) -> Option<u32> {
        let (text, ends) = self.store.parts();
        let name = name.as_bytes();
        let mut start = 0;
        (0..).zip(ends).find_map(|(i, &end)| {
            let end = end as usize;
            // The lengths first, which rule out most names.
            let found = end - start == name.len() && text[start..end] == *name;
            start = end;
            found.then_some(i)
        })
    }

    pub(crate) fn find(&self, name: &str) -> Option<u32> {
        match &self.hasher {
            Some(hasher) if self.len() > Names::SCAN => self
                .by_name
                .find(hasher.hash_one(name.as_bytes()), |&i| {
                    self.bytes(i as usize) == name.as_bytes()
                })
                .copied(),
            _ => {
                let (word, bit) = filter_bit(name_hash(name));
                if self.seen[word] & bit == 0 {
                    None
                } else {
                    self.scan(name)
                }
            }
        }
    }

    /// The name of variable `i`.
    pub(crate) fn get(&self, i: usize) -> &str {
        // Whole names, each a `&str` when stored: the check cannot fail. It
        // costs a pass over the name, paid where names are printed, so that
        // the model's build copies bytes (see `Store::InPlace`).
        std::str::from_utf8(self.bytes(i)).expect("a name is UTF-8")
    }

    /// The name of variable `i`, as stored.
    fn bytes(&self, i: usize) -> &[u8] {
        let (text, ends) = self.store.parts();
        slice(text, ends, i)
    }
}

fn slice<'a>(text: &'a [u8], ends: &[u32], i: usize) -> &'a [u8] {
    let start = if i == 0 { 0 } else { ends[i - 1] as usize };
    &text[start..ends[i] as usize]
}

/// A 32-bit hash of a name for [`Names::seen`], made for the short names
/// models have: one multiply for up to 16 bytes (foldhash's folded multiply
/// of the first and last eight), one more for each further eight. Names that
/// collide only cost a string comparison.
fn name_hash(name: &str) -> u32 {
    let b = name.as_bytes();
    let (first, last) = name_ends(b);
    finish_hash(b, first, last)
}

/// The first and last words of `b` that [`name_hash`] starts from: the
/// first and last eight bytes, or four, or two (which overlap in a name of
/// three bytes), or the one byte of a name of one.
// Two overlapping pairs, not a three-byte name's first, middle and last
// bytes packed into one word: `Names::push_new` then holds two values, not
// three, while it copies and hashes, and needs no register saved.
#[inline(always)]
fn name_ends(b: &[u8]) -> (u64, u64) {
    let n = b.len();
    match n {
        8.. => (word_at(b, 0), word_at(b, n - 8)),
        4..=7 => (half_at(b, 0), half_at(b, n - 4)),
        2..=3 => (pair_at(b, 0), pair_at(b, n - 2)),
        1 => (u64::from(b[0]), 0),
        0 => (0, 0),
    }
}

/// The two bytes of `b` from `i`, as a little-endian word.
#[inline(always)]
fn pair_at(b: &[u8], i: usize) -> u64 {
    u64::from(u16::from_le_bytes(
        b[i..i + 2].try_into().expect("two bytes"),
    ))
}

/// [`name_hash`] of `b`, from its [`name_ends`].
#[inline(always)]
fn finish_hash(b: &[u8], first: u64, last: u64) -> u32 {
    let n = b.len();
    let mut h = folded_multiply(
        first ^ 0x243f_6a88_85a3_08d3,
        last ^ 0x1319_8a2e_0370_7344 ^ n as u64,
    );
    // Past 16 bytes, the middle ones too.
    let mut i = 8;
    while i + 8 < n {
        h = folded_multiply(h ^ word_at(b, i), 0xa409_3822_299f_31d0);
        i += 8;
    }
    (h ^ h >> 32) as u32
}

/// The eight bytes of `b` from `i`, as a little-endian word.
#[inline(always)]
fn word_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("eight bytes"))
}

/// The four bytes of `b` from `i`, as a little-endian word.
#[inline(always)]
fn half_at(b: &[u8], i: usize) -> u64 {
    u64::from(u32::from_le_bytes(
        b[i..i + 4].try_into().expect("four bytes"),
    ))
}

/// Copies `name` into `dest`, of the same length, and returns its
/// [`name_hash`]: up to 16 bytes, the words the hash starts from are
/// loaded once, stored back as they are (two overlapping words, halves or
/// pairs, or one byte), and no `memcpy` is called.
// Always inlined: `Names::push_new` calls it once, and left to itself the
// compiler makes a call of the copy.
#[inline(always)]
fn put_hashed(dest: &mut [u8], name: &[u8]) -> u32 {
    let n = name.len();
    let (first, last) = name_ends(name);
    match n {
        17.. => dest.copy_from_slice(name),
        8.. => {
            dest[..8].copy_from_slice(&first.to_le_bytes());
            dest[n - 8..].copy_from_slice(&last.to_le_bytes());
        }
        4..=7 => {
            dest[..4].copy_from_slice(&(first as u32).to_le_bytes());
            dest[n - 4..].copy_from_slice(&(last as u32).to_le_bytes());
        }
        2..=3 => {
            dest[..2].copy_from_slice(&(first as u16).to_le_bytes());
            dest[n - 2..].copy_from_slice(&(last as u16).to_le_bytes());
        }
        1 => dest[0] = first as u8,
        0 => {}
    }
    finish_hash(name, first, last)
}

fn folded_multiply(a: u64, b: u64) -> u64 {
    let full = u128::from(a) * u128::from(b);
    full as u64 ^ (full >> 64) as u64
}

/// The word and bit of [`Names::seen`] for a name's hash.
fn filter_bit(hash: u32) -> (usize, u64) {
    ((hash >> 6 & 15) as usize, 1 << (hash & 63))
}

// The errors of declaring a variable, kept out of line so the common path
// carries no string copy.
#[cold]
#[inline(never)]
fn empty_domain(name: &str) -> ModelError {
    ModelError::EmptyDomain {
        name: name.to_owned(),
    }
}

#[cold]
#[inline(never)]
fn duplicate_name(name: &str) -> ModelError {
    ModelError::DuplicateName {
        name: name.to_owned(),
    }
}

fn check_value(v: i64, what: &'static str) -> Result<u8, ModelError> {
    u8::try_from(v)
        .ok()
        .filter(|&v| v <= Domain::MAX_VALUE)
        .ok_or(ModelError::ValueOutOfRange { value: v, what })
}

fn check_offset(c: i32) -> Result<i32, ModelError> {
    check_offset_i64(i64::from(c))
}

fn check_offset_i64(c: i64) -> Result<i32, ModelError> {
    if (-63..=63).contains(&c) {
        Ok(c as i32)
    } else {
        Err(ModelError::ValueOutOfRange {
            value: c,
            what: "an offset (-63..=63)",
        })
    }
}

fn check_group(len: usize) -> Result<(), ModelError> {
    if len > MAX_GROUP {
        Err(ModelError::TooManyVariables {
            found: len,
            limit: MAX_GROUP,
        })
    } else {
        Ok(())
    }
}

fn domain_of(values: &[i64]) -> Result<Domain, ModelError> {
    values.iter().try_fold(Domain::EMPTY, |d, &v| {
        Ok(d | Domain::singleton(check_value(v, "a value (0..=63)")?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_on_several_threads_all_have_their_own_tags() {
        let per_thread = 1_100;
        let tags: Vec<u32> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..3)
                .map(|_| {
                    s.spawn(move || {
                        (0..per_thread)
                            .map(|_| Model::new().tags().own)
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            threads
                .into_iter()
                .flat_map(|t| t.join().expect("no panic"))
                .collect()
        });
        let mut sorted = tags.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), tags.len());
        // And a cleared model is a new one.
        let mut m = Model::new();
        let before = m.tags().own;
        m.clear();
        assert!(m.tags().own != before && !tags.contains(&m.tags().own));
    }

    /// The variable list of a group constraint, in the model's storage.
    fn group_of(m: &Model, c: ConstraintId) -> &[VarId] {
        match m.posted()[c.index()] {
            Posted::AllDifferent { vars, .. } | Posted::EachValueHeld { vars, .. } => m.group(vars),
            other => panic!("not a group constraint: {other:?}"),
        }
    }

    /// Names that look alike: shared prefixes and suffixes, the empty
    /// name, lengths on both sides of the hash's 8- and 16-byte cases.
    fn name(i: usize) -> String {
        match i % 4 {
            0 => format!("x{i}"),
            1 => format!("{i}x"),
            2 => format!("a long shared prefix {i}"),
            _ if i == 3 => String::new(),
            _ => "y".repeat(i % 40) + &i.to_string(),
        }
    }

    #[test]
    fn names_are_found_and_refused_again_as_the_index_grows() {
        let mut m = Model::new();
        let mut xs = Vec::new();
        for i in 0..1000 {
            xs.push(
                m.var_with_domain(&name(i), Domain::singleton(1))
                    .expect("fresh"),
            );
            // Every name so far, early ones included, is still taken: the
            // table has grown (16, 32, ... slots) without losing any.
            if i.is_power_of_two() || i % 97 == 0 {
                for j in 0..=i {
                    assert_eq!(
                        m.var_with_domain(&name(j), Domain::singleton(1)),
                        Err(ModelError::DuplicateName { name: name(j) })
                    );
                }
            }
        }
        assert_eq!(m.len(), 1000);
        for (i, &x) in xs.iter().enumerate() {
            assert_eq!(m.var(&name(i)), Ok(x));
            assert_eq!(m.name(x), name(i));
        }
        for unknown in ["x1000", "1000x", "x", "a long shared prefix ", "y"] {
            assert!(m.var(unknown).is_err(), "{unknown:?}");
        }
    }

    #[test]
    fn a_name_put_in_place_is_copied_and_hashed_as_looked_up() {
        // Every length case of the shared loads: none, bytes, halves, two
        // words, and the longer ones the copy leaves to `memcpy`.
        for n in 0..=40 {
            let name: String = (0..n)
                .map(|i| char::from(b'a' + (i * 7 % 26) as u8))
                .collect();
            let mut dest = vec![b'#'; n];
            let hash = put_hashed(&mut dest, name.as_bytes());
            assert_eq!(dest, name.as_bytes(), "{n} bytes");
            assert_eq!(hash, name_hash(&name), "{n} bytes");
        }
    }

    #[test]
    fn an_empty_model_finds_no_name() {
        let m = Model::new();
        assert!(m.var("").is_err());
        let mut cleared = Model::with_capacity(4, 0);
        cleared.int_var("a", 0, 1).expect("fresh");
        cleared.clear();
        assert!(cleared.var("a").is_err());
        assert_eq!(format!("{:?}", cleared.names), "[]");
    }

    #[test]
    fn names_that_share_a_filter_bit_are_told_apart() {
        // Pairs of different names with the same bit, and a third name with
        // it too: the filter sends each to the comparison with all names.
        let mut by_bit = std::collections::BTreeMap::<_, Vec<String>>::new();
        for i in 0..3000 {
            let name = name(i);
            by_bit
                .entry(filter_bit(name_hash(&name)))
                .or_default()
                .push(name);
        }
        let mut triples = 0;
        for names in by_bit.values().filter(|names| names.len() >= 3) {
            let (a, b, absent) = (&names[0], &names[1], &names[2]);
            let mut m = Model::new();
            // Filler names before and between, so the one found is not
            // simply the first or the last.
            let fill = |m: &mut Model, k: usize| {
                for j in 0..k {
                    m.int_var(&format!("filler {k} {j}"), 0, 1).expect("fresh");
                }
            };
            fill(&mut m, 3);
            let x = m.int_var(a, 0, 1).expect("fresh");
            fill(&mut m, 5);
            let y = m.int_var(b, 0, 1).expect("fresh: only its bit is taken");
            assert!(m.len() <= Names::SCAN, "found by the filter and the scan");
            for (name, var) in [(a, x), (b, y)] {
                assert_eq!(
                    m.int_var(name, 0, 1),
                    Err(ModelError::DuplicateName { name: name.clone() })
                );
                assert_eq!(m.var(name), Ok(var));
            }
            assert!(m.var(absent).is_err(), "{absent:?}");
            triples += 1;
        }
        assert!(triples > 100, "{triples} triples");
    }

    #[test]
    fn names_and_domains_move_to_the_heap_when_too_many_or_too_long() {
        // Each name's domain is its index's value: the domains must move
        // with the names, and a refused name must add no domain.
        let domain = |i: usize| Domain::singleton(i as u8);
        for len in [1, 9, 100] {
            for vars in [0, 8, 40] {
                let mut names = Names::with_capacity(vars);
                let mut all: Vec<String> = Vec::new();
                for i in 0..40 {
                    let name = format!("{i:0>len$}");
                    assert!(names.insert(&name, domain(i)));
                    all.push(name);
                    let bytes: usize = all.iter().map(String::len).sum();
                    let moved = vars > IN_PLACE || all.len() > IN_PLACE || bytes > IN_PLACE_TEXT;
                    assert_eq!(
                        matches!(names.store, Store::Heap { .. }),
                        moved,
                        "{len} bytes, room for {vars}, {} names",
                        all.len()
                    );
                    for (j, name) in all.iter().enumerate() {
                        assert_eq!(names.get(j), name);
                        assert_eq!(names.find(name), Some(j as u32));
                        assert!(!names.insert(name, Domain::EMPTY), "{name} taken");
                    }
                    assert_eq!(names.len(), all.len());
                    let expected: Vec<Domain> = (0..all.len()).map(domain).collect();
                    assert_eq!(names.domains(), expected);
                }
                names.clear();
                assert_eq!((names.len(), names.find(&all[0])), (0, None));
                assert!(names.domains().is_empty());
                assert!(names.insert(&all[0], domain(2)));
                assert_eq!(names.domains(), [domain(2)]);
            }
        }
    }

    #[test]
    fn names_are_refused_as_a_set_of_them_would_across_the_scan_limit() {
        // A pool small enough that names repeat, declared in a scrambled
        // order; every answer is checked against a plain map.
        for pool in [20, 40, 100] {
            let mut m = Model::new();
            let mut declared = std::collections::BTreeMap::new();
            for k in 0..3 * pool {
                let name = name(k * 7 % pool);
                let result = m.int_var(&name, 0, 1);
                match declared.get(&name) {
                    Some(_) => assert_eq!(
                        result,
                        Err(ModelError::DuplicateName { name: name.clone() })
                    ),
                    None => {
                        declared.insert(name.clone(), result.expect("fresh"));
                    }
                }
                for (name, &var) in &declared {
                    assert_eq!(m.var(name), Ok(var), "pool {pool}, step {k}");
                }
            }
            assert_eq!(m.len(), declared.len());
        }
    }

    #[test]
    fn names_refused_at_the_scan_limit_index_the_others_once() {
        // Exactly `SCAN` names, then a taken one offered again and again
        // (each offer goes to the hash table, and is refused), then a
        // fresh one: the table holds each name once.
        let mut m = Model::new();
        for i in 0..Names::SCAN {
            m.int_var(&name(i), 0, 1).expect("fresh");
        }
        for _ in 0..10 {
            assert_eq!(
                m.int_var(&name(3), 0, 1),
                Err(ModelError::DuplicateName { name: name(3) })
            );
        }
        let last = m.int_var(&name(Names::SCAN), 0, 1).expect("fresh");
        assert_eq!(m.names.by_name.len(), Names::SCAN + 1);
        assert_eq!(m.var(&name(Names::SCAN)), Ok(last));
        assert_eq!(m.var(&name(3)).map(VarId::index), Ok(3));
    }

    #[test]
    fn a_cleared_model_takes_its_old_names_again_beyond_its_capacity() {
        let mut m = Model::with_capacity(3, 1);
        for round in 0..3 {
            let xs: Vec<VarId> = (0..40)
                .map(|i| m.int_var(&name(i), 0, 1).expect("fresh after clear"))
                .collect();
            assert_eq!(
                m.int_var(&name(39), 0, 1),
                Err(ModelError::DuplicateName { name: name(39) })
            );
            for (i, &x) in xs.iter().enumerate() {
                assert_eq!(m.var(&name(i)), Ok(x), "round {round}");
            }
            assert_eq!(format!("{:?}", m.names).matches(", ").count(), 39);
            m.clear();
        }
    }

    #[test]
    fn a_solution_keeps_the_names_it_was_found_with_as_the_model_grows() {
        let mut m = Model::new();
        let x = m.int_var("x", 2, 2).expect("fresh");
        let solution = crate::Solver::new(&m)
            .first(&crate::SearchOptions::default())
            .solutions
            .remove(0);
        // The model goes on growing its own names ...
        let y = m.int_var("y", 3, 3).expect("fresh");
        assert_eq!(
            m.int_var("x", 0, 1),
            Err(ModelError::DuplicateName { name: "x".into() })
        );
        assert_eq!((m.var("x"), m.var("y")), (Ok(x), Ok(y)));
        assert_eq!(m.domains(), [Domain::singleton(2), Domain::singleton(3)]);
        // ... and the solution keeps the names it was found with.
        assert_eq!(solution.value_of("x"), Some(2));
        assert_eq!(solution.value_of("y"), None);
        assert_eq!(solution.iter().collect::<Vec<_>>(), [("x", 2)]);
    }

    #[test]
    fn a_copy_refilled_from_names_of_either_kind_reads_as_they_do() {
        // Names in place, on the heap (too many, too long) and none; each
        // copy refilled from each: a copy on the heap stays there (a
        // solver's reload keeps its storage) and must read as its source.
        let build = |n: usize, width: usize| {
            let mut names = Names::with_capacity(0);
            for i in 0..n {
                let domain = Domain::singleton((i % 64) as u8);
                assert!(names.insert(&format!("{i:0width$}"), domain));
            }
            names
        };
        let sources = [build(3, 2), build(40, 3), build(5, 100), build(0, 1)];
        for first in &sources {
            for source in &sources {
                let mut copy = first.clone();
                copy.clone_from(source);
                assert_eq!(format!("{copy:?}"), format!("{source:?}"));
                assert_eq!(copy.domains(), source.domains());
                for i in 0..source.len() {
                    assert_eq!(copy.find(source.get(i)), Some(i as u32));
                }
                assert_eq!(copy.find("absent"), None);
            }
        }
    }

    #[test]
    fn labels_belong_to_their_constraint_only() {
        let mut m = Model::new();
        let x = m.int_var("x", 0, 3).expect("fresh");
        let first = m.equal_value(x, 1).expect("valid");
        let second = m.not_equal_value(x, 2).expect("valid");
        m.set_label(second, "second");
        let third = m.less_offset(x, x, 1).expect("valid");
        assert_eq!(m.label(first), None);
        assert_eq!(m.label(second), Some("second"));
        assert_eq!(m.label(third), None);
        assert_eq!(m.describe(third), "less(x, x)");
        m.set_label(first, "first");
        assert_eq!(m.label(first), Some("first"));
        m.clear();
        let x = m.int_var("x", 0, 3).expect("fresh");
        let again = m.equal_value(x, 1).expect("valid");
        assert_eq!(m.label(again), None, "labels go with a clear");
    }

    #[test]
    fn relabelling_keeps_every_label_and_bounds_the_store() {
        // Constraints relabelled in turn with labels of changing lengths:
        // each keeps its latest label, the others keep theirs, and the text
        // kept never exceeds twice the live labels' (the replaced ones are
        // dropped in time).
        let mut m = Model::new();
        let x = m.int_var("x", 0, 3).expect("fresh");
        let cs: Vec<ConstraintId> = (0..5)
            .map(|v| m.not_equal_value(x, v).expect("valid"))
            .collect();
        let mut expected: Vec<Option<String>> = vec![None; cs.len()];
        for round in 0..500 {
            let k = (round * 7) % cs.len();
            let label = "ab".repeat(1 + round % 13) + &round.to_string();
            m.set_label(cs[k], &label);
            expected[k] = Some(label);
            for (&c, want) in cs.iter().zip(&expected) {
                assert_eq!(m.label(c), want.as_deref());
            }
            let live: usize = expected.iter().flatten().map(String::len).sum();
            assert!(m.labels.text.len() <= 2 * live, "round {round}");
        }
    }

    #[test]
    #[should_panic(expected = "was not posted")]
    fn labelling_a_constraint_not_posted_panics() {
        let mut m = Model::new();
        let x = m.int_var("x", 0, 3).expect("fresh");
        m.equal_value(x, 1).expect("valid");
        m.set_label(ConstraintId::new(m.tags().own, 1), "nothing");
    }

    #[test]
    fn a_group_reports_its_first_foreign_variable() {
        let mut m = Model::new();
        let mut other = Model::new();
        let ours: Vec<VarId> = (0..3)
            .map(|i| m.int_var(&name(i), 0, 3).expect("fresh"))
            .collect();
        let theirs: Vec<VarId> = (0..6)
            .map(|i| other.int_var(&name(i), 0, 3).expect("fresh"))
            .collect();
        let group = [ours[0], theirs[4], ours[1], theirs[5]];
        let expected = Err(ModelError::ForeignVariable { index: 4 });
        assert_eq!(m.all_different(&group, Strength::Value), expected);
        assert_eq!(m.each_value_held(&group, Domain::range(0, 1)), expected);
        // Foreign variables are reported before the group's size.
        let mut big = vec![ours[2]; MAX_GROUP];
        big.push(theirs[5]);
        let expected = Err(ModelError::ForeignVariable { index: 5 });
        assert_eq!(m.all_different(&big, Strength::Value), expected);
        assert_eq!(m.each_value_held(&big, Domain::EMPTY), expected);
        assert_eq!(m.constraint_count(), 0);
    }

    #[test]
    fn every_kind_of_constraint_posted_comes_back_as_posted() {
        // Kept compactly (see `Posted`), each constraint is handed back as
        // the `Constraint` it was posted as, with its checks the same.
        use crate::propagators::testing::Watch;
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..4)
            .map(|i| m.int_var(&format!("x{i}"), 1, 6).expect("fresh"))
            .collect();
        let (x, y) = (xs[0], xs[1]);
        let constraints = [
            Constraint::Equal { x, y },
            Constraint::EqualValue { x, v: 3 },
            Constraint::NotEqual { x, y },
            Constraint::NotEqualValue { x, v: 2 },
            Constraint::InSet {
                x,
                set: Domain::range(2, 5),
            },
            Constraint::Offset { x, y, c: -2 },
            Constraint::Distance { x, y, c: 1 },
            Constraint::NotDistance { x, y, c: 3 },
            Constraint::Less { x, y, c: 1 },
            Constraint::AllDifferent {
                vars: xs[1..].into(),
                offsets: vec![0, 1, -1],
                strength: Strength::Value,
            },
            Constraint::AllDifferent {
                vars: xs[..].into(),
                offsets: Vec::new(),
                strength: Strength::Domain,
            },
            Constraint::EachValueHeld {
                vars: xs[..3].into(),
                values: Domain::range(1, 3),
            },
            Constraint::Custom(Arc::new(Watch(y))),
        ];
        let texts: Vec<String> = constraints.iter().map(|c| format!("{c:?}")).collect();
        let ids: Vec<ConstraintId> = constraints
            .into_iter()
            .map(|c| m.post(c).expect("valid"))
            .collect();
        assert_eq!(m.constraint_ids().collect::<Vec<_>>(), ids);
        for ((id, c), text) in m.constraints().zip(&texts) {
            assert_eq!(&format!("{c:?}"), text);
            assert_eq!(format!("{:?}", m.constraint(id)), *text);
        }
        // Read in place, the checks agree with the constraints' own.
        let mut values = [1u8; 4];
        for code in 0..6u32.pow(4) {
            let mut rest = code;
            for v in &mut values {
                *v = (rest % 6) as u8 + 1;
                rest /= 6;
            }
            let value = |x: VarId| values[x.index()];
            let first_violated = m
                .constraints()
                .find(|(_, c)| c.holds(&value) == Some(false))
                .map(|(id, _)| id);
            assert_eq!(m.check(&values).err(), first_violated, "{values:?}");
        }
    }

    #[test]
    fn a_group_constraint_keeps_its_own_copy_of_the_variables_given() {
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..4)
            .map(|i| m.int_var(&format!("x{i}"), 1, 4).expect("fresh"))
            .collect();
        let distinct = m.all_different(&xs, Strength::Domain).expect("valid");
        let held = m.each_value_held(&xs, Domain::range(1, 4)).expect("valid");
        let shifted = m
            .all_different_offsets(&xs, &[0, 1, 2, 3], Strength::Value)
            .expect("valid");
        let fewer = m.all_different(&xs[..3], Strength::Value).expect("valid");
        m.less(xs[0], xs[1]).expect("valid");
        let again = m
            .each_value_held(&xs[..3], Domain::range(1, 3))
            .expect("valid");
        for c in [distinct, held, shifted] {
            assert_eq!(group_of(&m, c), &xs[..]);
        }
        for c in [fewer, again] {
            assert_eq!(group_of(&m, c), &xs[..3]);
        }
        // As plain data, the same lists, and the offsets as given.
        for c in [distinct, held, shifted, fewer, again] {
            let vars = m.constraint(c).vars();
            assert_eq!(vars, group_of(&m, c));
        }
        assert!(matches!(
            m.constraint(shifted),
            Constraint::AllDifferent { offsets, .. } if offsets == [0, 1, 2, 3]
        ));
        assert!(matches!(
            m.constraint(distinct),
            Constraint::AllDifferent { offsets, strength: Strength::Domain, .. } if offsets.is_empty()
        ));
        // The each-value-held posted right after the all-different on the
        // same list shares its place; every other list has its own, the
        // each-value-held posted after another constraint too.
        assert_eq!(group_of(&m, held).as_ptr(), group_of(&m, distinct).as_ptr());
        let lists = [distinct, shifted, fewer, again].map(|c| group_of(&m, c).as_ptr());
        for (i, a) in lists.iter().enumerate() {
            assert!(
                lists[..i].iter().all(|b| b != a),
                "lists {i} shares storage"
            );
        }
    }
}
