//! Lowering: each constraint of the model becomes the propagator that
//! enforces it, or none.
//!
//! Post-time simplification (Gecode's `post()`): a binary constraint on one
//! variable twice always holds (`x = x`: no propagator) or never does
//! (`x != x`: an always-empty unary one, so that the conflict is still
//! reported against the constraint). Static redundancy: an each-value-held
//! that a domain all-different on the same permutation makes redundant
//! runs only while that all-different is switched off
//! ([`Permutations::redundant_with`]).

use super::Slot;
use crate::domain::Domain;
use crate::ids::{Group, VarId};
use crate::model::{Model, Posted, Strength};
use crate::propagator::has_repeats;
use crate::propagators::{
    AllDifferentDomain, AllDifferentValue, AnyPropagator, Distance, EachValueHeld, Equal, InSet,
    Less, NotDistance, Offset,
};

/// The propagator of `constraint`, or `None` when it always holds.
#[inline(always)]
pub(super) fn lower(constraint: &Posted, model: &Model) -> Option<AnyPropagator> {
    let unary = |x: VarId, set: Domain| InSet { x, set };
    // For a binary constraint on one variable twice that never holds.
    let never = |x: VarId| Some(unary(x, Domain::EMPTY).into());
    let prop: AnyPropagator = match *constraint {
        Posted::EqualValue { x, v } => unary(x, Domain::singleton(v as u8)).into(),
        Posted::NotEqualValue { x, v } => unary(x, !Domain::singleton(v as u8)).into(),
        Posted::InSet { x, set } => unary(x, set).into(),
        Posted::Equal { x, y } if x == y => return None,
        Posted::Equal { x, y } => Equal { x, y }.into(),
        Posted::NotEqual { x, y } if x == y => return never(x),
        Posted::NotEqual { x, y } => NotDistance { x, y, c: 0 }.into(),
        // x = x + c and |x - x| = c hold iff c = 0.
        Posted::Offset { x, y, c } | Posted::Distance { x, y, c } if x == y => {
            return if c == 0 { None } else { never(x) };
        }
        Posted::Offset { x, y, c } => Offset { x, y, c }.into(),
        Posted::Distance { x, y, c } => Distance { x, y, c: c as u32 }.into(),
        Posted::NotDistance { x, y, c } if x == y => {
            return if c != 0 { None } else { never(x) };
        }
        Posted::NotDistance { x, y, c } => NotDistance { x, y, c: c as u32 }.into(),
        // x < x + c holds iff c > 0.
        Posted::Less { x, y, c } if x == y => {
            return if c > 0 { None } else { never(x) };
        }
        Posted::Less { x, y, c } => Less { x, y, c }.into(),
        Posted::AllDifferent {
            vars: group,
            offsets,
            strength,
        } => {
            if group.len() < 2 {
                return None;
            }
            // The engine's group variables and offsets are copies of the
            // model's, so a group and its offsets have the same places in
            // both.
            let vars = model.group(group);
            // No offsets, or all zero: an empty place.
            let offsets = if model.offsets_of(group, offsets).iter().any(|&o| o != 0) {
                Group {
                    start: offsets,
                    len: group.len,
                }
            } else {
                Group::default()
            };
            match strength {
                Strength::Value => AllDifferentValue::new(vars, group, offsets).into(),
                Strength::Domain => AllDifferentDomain::new(vars, group, offsets).into(),
            }
        }
        Posted::EachValueHeld {
            vars: group,
            values,
        } => {
            if values.is_empty() {
                return None;
            }
            EachValueHeld::new(model.group(group), group, values).into()
        }
        Posted::Custom(i) => AnyPropagator::Custom(i),
    };
    Some(prop)
}

/// A set of distinct variables, summed up: equal sets have equal keys, so
/// unequal keys rule a pair out before its lists are compared (a sudoku's
/// 27 units against its 27 each-value-helds, each list a permutation of
/// the other's or disjoint).
#[derive(Clone, Copy, PartialEq, Eq)]
struct SetKey {
    /// Bit `x % 64` for each variable `x`.
    bits: u64,
    /// The sum of the variables' indices.
    sum: usize,
}

impl SetKey {
    fn of(vars: &[VarId]) -> SetKey {
        vars.iter()
            .fold(SetKey { bits: 0, sum: 0 }, |key, x| SetKey {
                bits: key.bits | 1 << (x.index() % 64),
                sum: key.sum + x.index(),
            })
    }
}

/// The domain all-differents that can make an each-value-held redundant
/// ([`Permutations::redundant_with`]): the propagators of the most costly
/// class, in posting order, with the set keys of their variables, made on
/// first need (a group that some all-different in order covers needs
/// none).
pub(super) struct Permutations<'c> {
    costly: &'c [Slot],
    /// Where the next look for an all-different in the same place starts:
    /// after the last one found, as each-value-helds and all-differents
    /// come in posting order (a sudoku's pairs are found in one pass, not
    /// one pass each).
    next: usize,
    /// For each of `costly`, the key of its variables when it is a domain
    /// all-different without offsets or a repeated variable.
    keys: Option<Vec<Option<SetKey>>>,
}

impl<'c> Permutations<'c> {
    /// The candidates among `costly`, the most costly class's propagators.
    pub(super) fn new(costly: &'c [Slot]) -> Permutations<'c> {
        Permutations {
            costly,
            next: 0,
            keys: None,
        }
    }

    /// The domain all-different that makes the each-value-held `held`
    /// redundant, if any, as an index into the candidates. `groups` are
    /// the engine's group variables, `domains` the model's initial domains.
    ///
    /// When an all-different at domain strength, without offsets, covers
    /// the same variables as an each-value-held whose values number as many
    /// as the variables and include every initial value, the two together
    /// say "a permutation of those values". Régin's filtering then already
    /// fixes a value's only holder (that edge is in every perfect matching,
    /// so the holder's other edges lie on no alternating cycle) and fails
    /// when a value has none, so the each-value-held would never prune
    /// anything: the fixpoints, and so the search trees, are the same
    /// without it. (When several all-differents qualify, any one serves.)
    pub(super) fn redundant_with(
        &mut self,
        held: &EachValueHeld,
        groups: &[VarId],
        domains: &[Domain],
    ) -> Option<usize> {
        let vars = held.vars.of(groups);
        if held.values.size() as usize != vars.len() {
            return None;
        }
        let unshifted = |slot: &'c Slot| match &slot.prop {
            AnyPropagator::AllDifferentDomain(all) if !all.shifted() && !all.repeats => Some(all),
            _ => None,
        };
        // The same variables, none twice: the same place among the group
        // variables (an each-value-held posted right after an all-different
        // on the same list shares its place, see `Model::each_value_held`),
        // else the same key and then the same set.
        let n = self.costly.len();
        let same_place = (self.next..n)
            .chain(0..self.next)
            .find(|&i| unshifted(&self.costly[i]).is_some_and(|all| all.vars == held.vars));
        if let Some(i) = same_place {
            self.next = i + 1;
        }
        let by = same_place.or_else(|| {
            if has_repeats(vars) {
                return None;
            }
            let keys = self.keys.get_or_insert_with(|| {
                let key = |slot| unshifted(slot).map(|all| SetKey::of(all.vars.of(groups)));
                self.costly.iter().map(key).collect()
            });
            let key = Some(SetKey::of(vars));
            (0..keys.len()).find(|&i| {
                keys[i] == key
                    && unshifted(&self.costly[i]).is_some_and(|all| {
                        let group = all.vars.of(groups);
                        group == vars
                            || group.len() == vars.len() && vars.iter().all(|x| group.contains(x))
                    })
            })
        })?;
        let initial = vars
            .iter()
            .fold(Domain::EMPTY, |d, &x| d | domains[x.index()]);
        (initial - held.values == Domain::EMPTY).then_some(by)
    }
}

#[cfg(test)]
mod tests {
    use super::lower;
    use crate::domain::Domain;
    use crate::model::{Model, Strength};
    use crate::propagators::KINDS;

    #[test]
    fn every_built_in_of_the_table_is_what_some_constraint_lowers_to() {
        // One constraint of every kind the model offers: together they must
        // reach every kind of the table, so that the oracle tests, which
        // post constraints, cover every built-in propagator.
        let mut m = Model::new();
        let x = m.int_var("x", 0, 5).expect("valid");
        let y = m.int_var("y", 0, 5).expect("valid");
        let z = m.int_var("z", 0, 5).expect("valid");
        m.equal(x, y).expect("valid");
        m.equal_value(x, 1).expect("valid");
        m.not_equal(x, y).expect("valid");
        m.not_equal_value(x, 1).expect("valid");
        m.offset(x, y, 1).expect("valid");
        m.distance(x, y, 1).expect("valid");
        m.not_distance(x, y, 2).expect("valid");
        m.less(x, y).expect("valid");
        m.in_set(x, &[1, 2, 3]).expect("valid");
        m.all_different(&[x, y, z], Strength::Value).expect("valid");
        m.all_different(&[x, y, z], Strength::Domain)
            .expect("valid");
        m.each_value_held(&[x, y, z], Domain::range(0, 2))
            .expect("valid");
        let mut reached: Vec<&str> = m
            .posted()
            .iter()
            .filter_map(|c| lower(c, &m))
            .map(|p| p.kind())
            .collect();
        reached.sort_unstable();
        reached.dedup();
        let mut table = KINDS.to_vec();
        table.sort_unstable();
        assert_eq!(reached, table);
    }
}
