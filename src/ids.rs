//! The handles of a model's parts: [`VarId`] for a variable, [`ConstraintId`]
//! for a constraint, and the place of a group of variables in a list.
//!
//! A handle is an index in declaration (or posting) order. A `VarId` also
//! carries the tag of the model that made it, so that a variable of one
//! model given to another is an error, not a silent mix-up.

use std::fmt;

/// A variable of one [`Model`](crate::Model): a cheap, copyable handle.
///
/// A `VarId` remembers which model made it, so passing it to another model is
/// an error ([`ModelError::ForeignVariable`](crate::ModelError::ForeignVariable)) rather than a silent mix-up.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId {
    /// The model that created this variable.
    pub(crate) model: u32,
    /// Position in declaration order, `0..model.len()`.
    pub(crate) index: u32,
}

impl VarId {
    pub(crate) const fn new(model: u32, index: u32) -> VarId {
        VarId { model, index }
    }

    /// The tag of the model that made this variable.
    pub(crate) const fn model(self) -> u32 {
        self.model
    }

    /// The variable's position in declaration order (0 for the first).
    #[inline]
    pub const fn index(self) -> usize {
        self.index as usize
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VarId({})", self.index)
    }
}

/// A constraint of one [`Model`](crate::Model), numbered in the order it was posted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstraintId(u32);

impl ConstraintId {
    /// The constraint posted `i`-th (from 0).
    pub(crate) const fn from_index(i: u32) -> ConstraintId {
        ConstraintId(i)
    }

    /// The constraint's position in posting order (0 for the first).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
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

    /// The variables, in `list` (the list the group was added to).
    #[inline(always)]
    pub(crate) fn of(self, list: &[VarId]) -> &[VarId] {
        &list[self.range()]
    }
}
