//! The handles of a model's parts: [`VarId`] for a variable, [`ConstraintId`]
//! for a constraint, and the place of a group of variables in a list.
//!
//! A handle is an index in declaration (or posting) order, with the tag of
//! the model that made it, so that a handle of one model given to another
//! is an error, not a silent mix-up ([`Tags`] says which handles a model
//! owns, a clone's included).

use std::fmt;

/// A variable of one [`Model`](crate::Model): a cheap, copyable handle.
///
/// A `VarId` remembers which model made it, so passing it to another model is
/// an error ([`ModelError::ForeignVariable`](crate::ModelError::ForeignVariable)) rather than a silent mix-up.
/// A clone of a model owns the variables the model had when it was cloned,
/// and neither owns a variable the other declares later.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct VarId {
    /// The tag of the model that created this variable.
    pub(crate) model: u32,
    /// Position in declaration order, `0..model.len()`.
    pub(crate) index: u32,
}

impl VarId {
    pub(crate) const fn new(model: u32, index: u32) -> VarId {
        VarId { model, index }
    }

    /// The variable's position in declaration order (0 for the first).
    #[inline]
    pub const fn index(self) -> usize {
        self.index as usize
    }
}

/// Declaration order (the tag breaks ties between models).
impl Ord for VarId {
    fn cmp(&self, other: &VarId) -> std::cmp::Ordering {
        (self.index, self.model).cmp(&(other.index, other.model))
    }
}

impl PartialOrd for VarId {
    fn partial_cmp(&self, other: &VarId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VarId({})", self.index)
    }
}

/// A constraint of one [`Model`](crate::Model), numbered in the order it was
/// posted. Like a [`VarId`], it remembers the model that posted it: another
/// model's constraint is an error (or, where the docs say so, a panic),
/// never a silent mix-up.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ConstraintId {
    /// The tag of the model that posted this constraint.
    model: u32,
    /// Position in posting order.
    index: u32,
}

impl ConstraintId {
    /// The constraint posted `index`-th (from 0) by the model tagged
    /// `model`.
    pub(crate) const fn new(model: u32, index: u32) -> ConstraintId {
        ConstraintId { model, index }
    }

    /// The constraint's position in posting order (0 for the first).
    #[inline]
    pub const fn index(self) -> usize {
        self.index as usize
    }
}

/// Posting order (the tag breaks ties between models).
impl Ord for ConstraintId {
    fn cmp(&self, other: &ConstraintId) -> std::cmp::Ordering {
        (self.index, self.model).cmp(&(other.index, other.model))
    }
}

impl PartialOrd for ConstraintId {
    fn partial_cmp(&self, other: &ConstraintId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for ConstraintId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ConstraintId({})", self.index)
    }
}

/// Which handles a model owns: those it made under its own tag, and, for
/// a clone, those of the models it was cloned from that existed at the
/// clone. A clone gets a tag of its own, so a variable or constraint that
/// either side makes after the clone is foreign to the other, while every
/// handle made before serves both. The handle of an index is always the
/// one its maker gave (same index, same tag), so handles compare equal
/// whichever model or engine made them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tags {
    /// The tag of the handles made since the last clone.
    pub(crate) own: u32,
    /// The first variable and the first constraint made under `own`: the
    /// numbers the model had at its last clone (zero for a model never
    /// cloned); those below carry an inherited tag.
    first_own: (u32, u32),
    /// For a clone: the tags of the models it descends from, oldest first,
    /// each with the numbers of variables and constraints that model had
    /// when it was cloned (the indices below them carry its tag, unless an
    /// older entry's numbers cover them). Empty for a model never cloned.
    inherited: Vec<Inherited>,
}

/// An ancestor's tag in [`Tags`], and the handles that carry it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Inherited {
    tag: u32,
    vars: u32,
    constraints: u32,
}

impl Tags {
    /// The tags of a model made with tag `own`.
    pub(crate) const fn new(own: u32) -> Tags {
        Tags {
            own,
            first_own: (0, 0),
            inherited: Vec::new(),
        }
    }

    /// The tags of a clone, tagged `own`, of a model with these tags and
    /// `vars` variables and `constraints` constraints.
    pub(crate) fn fork(&self, own: u32, vars: u32, constraints: u32) -> Tags {
        let mut inherited = self.inherited.clone();
        inherited.push(Inherited {
            tag: self.own,
            vars,
            constraints,
        });
        Tags {
            own,
            first_own: (vars, constraints),
            inherited,
        }
    }

    /// The variable at `index`, with the tag its maker gave it.
    #[inline]
    pub(crate) fn var(&self, index: u32) -> VarId {
        if index >= self.first_own.0 {
            VarId::new(self.own, index)
        } else {
            VarId::new(self.inherited_tag(index, |a| a.vars), index)
        }
    }

    /// The constraint at `index`, with the tag its maker gave it.
    #[inline]
    pub(crate) fn constraint(&self, index: u32) -> ConstraintId {
        if index >= self.first_own.1 {
            ConstraintId::new(self.own, index)
        } else {
            ConstraintId::new(self.inherited_tag(index, |a| a.constraints), index)
        }
    }

    /// The tag of the oldest ancestor whose count (`count` of it) covers
    /// `index`.
    #[cold]
    #[inline(never)]
    fn inherited_tag(&self, index: u32, count: fn(&Inherited) -> u32) -> u32 {
        self.inherited
            .iter()
            .find(|a| index < count(a))
            .map_or(self.own, |a| a.tag)
    }

    /// Whether `x` is a variable of a model with these tags and `vars`
    /// variables.
    #[inline]
    pub(crate) fn owns_var(&self, x: VarId, vars: usize) -> bool {
        // Under its own tag a model makes only the handles of indices from
        // `first_own` on, so one with its tag and in range is its own (the
        // common case, in two tests); any other is looked up.
        if x.model == self.own {
            x.index() < vars
        } else {
            self.owns_inherited(x)
        }
    }

    /// [`Tags::owns_var`] for a handle with another tag than `own`.
    #[cold]
    #[inline(never)]
    fn owns_inherited(&self, x: VarId) -> bool {
        x.index < self.first_own.0 && self.var(x.index) == x
    }

    /// Whether `c` is a constraint of a model with these tags and
    /// `constraints` constraints.
    #[inline]
    pub(crate) fn owns_constraint(&self, c: ConstraintId, constraints: usize) -> bool {
        c.index() < constraints && self.constraint(c.index) == c
    }
}

/// Where a group's variables are in a list of variables: `len` of them from
/// `start`. The model keeps every group constraint's variables in one list
/// and the engine copies it whole, so a group keeps its place; a group
/// propagator reads its variables through its run's context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Group {
    /// The first variable's place in the list.
    pub(crate) start: u32,
    /// The number of variables.
    pub(crate) len: u32,
}

impl Group {
    /// The number of variables.
    #[inline(always)]
    pub(crate) fn len(self) -> usize {
        self.len as usize
    }

    /// The places of the variables in the list.
    #[inline(always)]
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }

    /// The variables (or offsets), in `list` (the list the group was
    /// added to).
    #[inline(always)]
    pub(crate) fn of<T>(self, list: &[T]) -> &[T] {
        &list[self.range()]
    }
}
