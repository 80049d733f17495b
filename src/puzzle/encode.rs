//! [`Puzzle::to_model`]: a puzzle as a [`Model`].
//!
//! One variable a value, its domain the houses `1..=houses`, declared group
//! by group in file order (so first-fail ties go to the earlier group). Each
//! group posts all-different; a group with a value for every house also
//! posts each-value-held (every house has one of its values). Each clue
//! posts one constraint (a chain `a < x < b` posts two), labelled with the
//! clue's sentence, or with the clue as written when it has none.
//!
//! A variable is named after its value, or `group.value` when the name is
//! in several groups.

use std::borrow::Cow;

use arrayvec::ArrayVec;
use hashbrown::HashMap;

use crate::check::{self, MinimizeError};
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::model::{Model, ModelError, Strength};
use crate::search::{Mode, SearchOptions, Solution, Solver};

use super::ast::{Cmp, Operand, Puzzle, Relation, ValueRef};

/// Where a constraint of a [`PuzzleModel`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The all-different of group `i`.
    AllDifferent(usize),
    /// The each-value-held of group `i` (a group with a value for every
    /// house).
    EveryHouse(usize),
    /// Clue `i`.
    Clue(usize),
}

/// A puzzle's [`Model`], with the way back from variables and constraints
/// to the puzzle's values and clues.
#[derive(Clone, Debug)]
pub struct PuzzleModel {
    model: Model,
    /// `vars[g][v]`: the variable of value `v` of group `g`.
    vars: Vec<Vec<VarId>>,
    /// `origins[c]`: where constraint `c` comes from.
    origins: Vec<Origin>,
}

impl PuzzleModel {
    /// The model, for [`Solver::new`](crate::Solver::new).
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The variable of a value.
    ///
    /// # Panics
    ///
    /// If `v` is not a value of the puzzle this model was built from.
    pub fn var(&self, v: ValueRef) -> VarId {
        self.vars[v.group][v.value]
    }

    /// The house of value `v` in `solution`.
    pub fn house(&self, solution: &Solution, v: ValueRef) -> u8 {
        solution[self.var(v)]
    }

    /// Where constraint `c` comes from.
    ///
    /// # Panics
    ///
    /// If `c` is not a constraint of this model.
    pub fn origin(&self, c: ConstraintId) -> Origin {
        self.origins[c.index()]
    }
}

impl Puzzle {
    /// The model of this puzzle, with domain-consistent all-different (the
    /// strongest pruning).
    ///
    /// ```
    /// use bitfd::{SearchOptions, Solver};
    ///
    /// let puzzle = bitfd::puzzle::parse("houses 2\ncolor: red blue\nred = 2\n")?;
    /// let pm = puzzle.to_model();
    /// let outcome = Solver::new(pm.model()).all(&SearchOptions::default());
    /// let blue = puzzle.lookup("blue").expect("declared");
    /// assert_eq!(pm.house(&outcome.solutions[0], blue), 1);
    /// # Ok::<(), bitfd::puzzle::ParseErrors>(())
    /// ```
    pub fn to_model(&self) -> PuzzleModel {
        self.to_model_with(Strength::Domain)
    }

    /// The model of this puzzle, with the given all-different strength.
    pub fn to_model_with(&self, strength: Strength) -> PuzzleModel {
        // The parser's invariants (see `ast`) make every post valid: values
        // and offsets are in range, groups have at most 63 variables, and
        // variable names are made distinct below.
        self.try_to_model(strength, None)
            .expect("a parsed puzzle satisfies the model's rules")
    }

    /// The clues that contradict each other before any search, when
    /// propagation alone proves the puzzle has no solution: a set of clue
    /// indices that, with the groups, still fails at the root, and from
    /// which no single clue can be dropped (found by dropping clues one at a
    /// time, in order). `None` if the puzzle does not fail at the root, or
    /// has more than 1000 clues (the search for the set rebuilds the model
    /// once a clue).
    ///
    /// ```
    /// use bitfd::Strength;
    ///
    /// let text = "houses 3\nx: a b c\nb = 2\na = 1\n\"c first\" c = 1\na != 3\n";
    /// let puzzle = bitfd::puzzle::parse(text)?;
    /// assert_eq!(puzzle.root_conflict(Strength::Domain), Some(vec![1, 2]));
    /// # Ok::<(), bitfd::puzzle::ParseErrors>(())
    /// ```
    pub fn root_conflict(&self, strength: Strength) -> Option<Vec<usize>> {
        if self.clues.len() > 1000 {
            return None;
        }
        let fails_at_root = |keep: &[bool]| {
            let pm = self
                .try_to_model(strength, Some(keep))
                .expect("a parsed puzzle satisfies the model's rules");
            let root_only = SearchOptions::default().node_limit(1);
            let outcome = Solver::new(pm.model()).solve(&root_only, Mode::First);
            outcome.root_failure.is_some()
        };
        let mut keep = vec![true; self.clues.len()];
        if !fails_at_root(&keep) {
            return None;
        }
        // Deletion filter: a clue whose removal keeps the failure is not
        // needed; one whose removal cures it is part of the conflict.
        for i in 0..keep.len() {
            keep[i] = false;
            if !fails_at_root(&keep) {
                keep[i] = true;
            }
        }
        Some((0..keep.len()).filter(|&i| keep[i]).collect())
    }

    /// The clues that contradict each other, each one needed: starting from
    /// [`Puzzle::root_conflict`]'s set, each clue in turn goes when the
    /// others (with the groups) still have no solution, proven by a search
    /// within `options`' limits. A clue that stays has a solution without
    /// it (found by the search), unless a limit cut that search short: then
    /// [`MinimalConflict::proven`] is false and the clue stays, maybe
    /// unneeded. `None` when the puzzle does not fail at the root (see
    /// [`Puzzle::root_conflict`]).
    ///
    /// ```
    /// use bitfd::{SearchOptions, Strength};
    ///
    /// // `a = 1` and `b = 1` fail at the root with the group; `c != 3`
    /// // joins them there but is not needed: without it, still no solution.
    /// let text = "houses 3\nx: a b c\na = 1\nb = 1\nc != 3\n";
    /// let puzzle = bitfd::puzzle::parse(text)?;
    /// let found = puzzle.minimal_conflict(Strength::Domain, &SearchOptions::default());
    /// let found = found.expect("fails at the root");
    /// assert_eq!(found.clues, vec![0, 1]);
    /// assert!(found.proven);
    /// # Ok::<(), bitfd::puzzle::ParseErrors>(())
    /// ```
    pub fn minimal_conflict(
        &self,
        strength: Strength,
        options: &SearchOptions,
    ) -> Option<MinimalConflict> {
        let mut clues = self.root_conflict(strength)?;
        let mut proven = true;
        let mut i = 0;
        while i < clues.len() {
            let mut keep = vec![false; self.clues.len()];
            for (k, &c) in clues.iter().enumerate() {
                keep[c] = k != i;
            }
            let pm = self
                .try_to_model(strength, Some(&keep))
                .expect("a parsed puzzle satisfies the model's rules");
            let outcome = Solver::new(pm.model()).solve(options, Mode::First);
            if !outcome.solutions.is_empty() {
                // Needed: without it the rest has a solution.
                i += 1;
            } else if outcome.status == crate::SearchStatus::Complete {
                clues.remove(i);
            } else {
                proven = false;
                i += 1;
            }
        }
        Some(MinimalConflict { clues, proven })
    }

    /// This puzzle with a minimal set of its clues: clues are dropped, in
    /// an order drawn from `seed`, while the solution stays unique, so
    /// that dropping any clue that is left would break uniqueness
    /// ([`check::minimize_groups`]; a chain `a < x < b` goes or stays
    /// whole). The title, groups and questions stay, and so do the kept
    /// clues' sentences, in their order. The same seed gives the same
    /// puzzle on every machine; `strength` and `options` change the
    /// searches' speed, not the verdicts (only limits can cut a search
    /// short, which keeps the clue at hand). Returns the puzzle and what
    /// was kept: `kept` and `cut_short` index this puzzle's clues, and a
    /// non-empty `cut_short` means the result may not be minimal
    /// ([`Minimized`](check::Minimized)).
    ///
    /// ```
    /// use bitfd::{SearchOptions, Strength};
    ///
    /// let text = "houses 3\nx: a b c\n\"A first.\" a = 1\nb = 2\nc = 3\n";
    /// let puzzle = bitfd::puzzle::parse(text)?;
    /// let (min, found) =
    ///     puzzle.minimized(7, Strength::Value, &SearchOptions::default()).expect("unique");
    /// assert!(found.is_proven_minimal());
    /// // Any two of the three facts place the third.
    /// assert_eq!(min.clues().len(), 2);
    /// assert_eq!(min.groups(), puzzle.groups());
    /// # Ok::<(), bitfd::puzzle::ParseErrors>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`MinimizeError::NotUnique`] when the puzzle with all its clues is
    /// not unique.
    pub fn minimized(
        &self,
        seed: u64,
        strength: Strength,
        options: &SearchOptions,
    ) -> Result<(Puzzle, check::Minimized<usize>), MinimizeError> {
        let pm = self.to_model_with(strength);
        let groups = pm.clue_constraints();
        let found = check::minimize_groups(&mut Solver::new(pm.model()), &groups, seed, options)?;
        let mut keep = vec![false; self.clues.len()];
        for &i in &found.kept {
            keep[i] = true;
        }
        let mut puzzle = self.clone();
        puzzle.retain_clues(|i, _| keep[i]);
        Ok((puzzle, found))
    }

    /// Builds the model, with only the clues `keep` marks (all when `None`).
    fn try_to_model(
        &self,
        strength: Strength,
        keep: Option<&[bool]>,
    ) -> Result<PuzzleModel, ModelError> {
        let houses = i64::from(self.houses);
        let vars_total: usize = self.groups.iter().map(|g| g.values.len()).sum();
        let constraints = 2 * self.groups.len() + self.clues.len();
        let mut model = Model::with_capacity(vars_total, constraints);
        let repeated = self.repeated_value_names();
        let mut vars = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            let mut ids = Vec::with_capacity(group.values.len());
            for value in &group.values {
                let name = if repeated.contains(&value.as_str()) {
                    Cow::Owned(format!("{}.{value}", group.name))
                } else {
                    Cow::Borrowed(value.as_str())
                };
                ids.push(declare(&mut model, &name, houses)?);
            }
            vars.push(ids);
        }
        let mut pm = PuzzleModel {
            model,
            vars,
            origins: Vec::with_capacity(constraints),
        };
        for (g, group) in self.groups.iter().enumerate() {
            let c = pm.model.all_different(&pm.vars[g], strength)?;
            pm.note(c, Origin::AllDifferent(g));
            if group.values.len() == usize::from(self.houses) {
                let every = Domain::range(1, self.houses);
                let c = pm.model.each_value_held(&pm.vars[g], every)?;
                pm.note(c, Origin::EveryHouse(g));
            }
        }
        for (i, clue) in self.clues.iter().enumerate() {
            if keep.is_none_or(|k| k[i]) {
                for c in pm.post(&clue.relation, self.houses)? {
                    pm.note(c, Origin::Clue(i));
                }
            }
        }
        // The labels once every constraint is posted, so that the model
        // makes room for them once: the clues' sentences, and two lines a
        // group (`group NAME: all different`, `group NAME: every house has
        // one`).
        const GROUP: &str = "group ";
        const ALL_DIFFERENT: &str = ": all different";
        const EVERY_HOUSE: &str = ": every house has one";
        let sentences: usize = (self.clues.iter())
            .filter_map(|c| c.label.as_ref())
            .map(String::len)
            .sum();
        let fixed = 2 * GROUP.len() + ALL_DIFFERENT.len() + EVERY_HOUSE.len();
        let groups: usize = self.groups.iter().map(|g| 2 * g.name.len() + fixed).sum();
        pm.model.reserve_labels(sentences + groups);
        let mut text = String::new();
        for (c, &origin) in pm.model.constraint_ids().zip(&pm.origins) {
            text.clear();
            let mut of_group = |g: usize, what: &str| {
                text.push_str(GROUP);
                text.push_str(&self.groups[g].name);
                text.push_str(what);
            };
            let label = match origin {
                Origin::AllDifferent(g) => {
                    of_group(g, ALL_DIFFERENT);
                    &text
                }
                Origin::EveryHouse(g) => {
                    of_group(g, EVERY_HOUSE);
                    &text
                }
                Origin::Clue(i) => match &self.clues[i].label {
                    Some(label) => label,
                    None => {
                        text = self.relation_text(&self.clues[i].relation);
                        &text
                    }
                },
            };
            pm.model.set_label(c, label);
        }
        Ok(pm)
    }

    /// The value names that occur in more than one group
    /// ([`Puzzle::is_ambiguous`] for every name at once): their variables
    /// are named `group.value`.
    fn repeated_value_names(&self) -> Vec<&str> {
        // Each name's first group.
        let mut first = HashMap::with_capacity(self.groups.iter().map(|g| g.values.len()).sum());
        let mut repeated = Vec::new();
        for (g, group) in self.groups.iter().enumerate() {
            for name in &group.values {
                let name = name.as_str();
                if *first.entry(name).or_insert(g) != g && !repeated.contains(&name) {
                    repeated.push(name);
                }
            }
        }
        repeated
    }
}

/// Declares the variable of a value named `name`, or `name#2`, `name#3`...
/// when the name is taken (a quoted value may read like another's
/// `group.value`).
fn declare(model: &mut Model, name: &str, houses: i64) -> Result<VarId, ModelError> {
    let mut n = 1;
    loop {
        let declared = if n == 1 {
            model.int_var(name, 1, houses)
        } else {
            model.int_var(&format!("{name}#{n}"), 1, houses)
        };
        match declared {
            Err(ModelError::DuplicateName { .. }) => n += 1,
            other => return other,
        }
    }
}

impl PuzzleModel {
    /// The constraints each clue posted, by clue: one, or two for a chain
    /// `a < x < b`. For a model built with every clue (as
    /// [`Puzzle::to_model`] builds it), entry `i` is clue `i`'s.
    ///
    /// ```
    /// let puzzle = bitfd::puzzle::parse("houses 3\nx: a b c\na = 1\na < b < c\n")?;
    /// let pm = puzzle.to_model();
    /// let sizes: Vec<usize> = pm.clue_constraints().iter().map(Vec::len).collect();
    /// assert_eq!(sizes, [1, 2]);
    /// # Ok::<(), bitfd::puzzle::ParseErrors>(())
    /// ```
    pub fn clue_constraints(&self) -> Vec<Vec<ConstraintId>> {
        let mut clues: Vec<Vec<ConstraintId>> = Vec::new();
        for (c, origin) in self.model.constraint_ids().zip(&self.origins) {
            if let Origin::Clue(i) = *origin {
                if clues.len() <= i {
                    clues.resize_with(i + 1, Vec::new);
                }
                clues[i].push(c);
            }
        }
        clues
    }

    /// Records where constraint `c`, the one just posted, comes from.
    fn note(&mut self, c: ConstraintId, origin: Origin) {
        debug_assert_eq!(c.index(), self.origins.len(), "one origin a constraint");
        self.origins.push(origin);
    }

    /// Posts one relation; returns the constraints posted.
    fn post(&mut self, r: &Relation, houses: u8) -> Result<ArrayVec<ConstraintId, 2>, ModelError> {
        let m = &mut self.model;
        let x = |v: ValueRef| self.vars[v.group][v.value];
        let c = match r {
            Relation::Same { a, b, offset: 0 } => m.equal(x(*a), x(*b))?,
            Relation::Same { a, b, offset } => m.offset(x(*a), x(*b), i64::from(*offset))?,
            Relation::At { a, house } => m.equal_value(x(*a), i64::from(*house))?,
            Relation::Differ { a, b } => m.not_equal(x(*a), x(*b))?,
            Relation::NotAt { a, house } => m.not_equal_value(x(*a), i64::from(*house))?,
            Relation::Distance { a, b, distance } => {
                m.distance(x(*a), x(*b), i64::from(*distance))?
            }
            Relation::NotDistance { a, b, distance } => {
                m.not_distance(x(*a), x(*b), i64::from(*distance))?
            }
            Relation::In { a, houses } => {
                let set: Vec<i64> = houses.iter().map(|&h| i64::from(h)).collect();
                m.in_set(x(*a), &set)?
            }
            Relation::Compare { left, op, right } => {
                let anchor = first_value([*left, *right]);
                self.compare(*left, *op, *right, anchor, houses)?
            }
            Relation::Between { low, mid, high } => {
                let anchor = first_value([*low, *mid, *high]);
                return Ok(ArrayVec::from([
                    self.compare(*low, Cmp::Lt, *mid, anchor, houses)?,
                    self.compare(*mid, Cmp::Lt, *high, anchor, houses)?,
                ]));
            }
        };
        Ok(std::iter::once(c).collect())
    }

    /// Posts `left op right`. `anchor` is a value of the clue, which carries
    /// the constraint when both sides are house numbers.
    fn compare(
        &mut self,
        left: Operand,
        op: Cmp,
        right: Operand,
        anchor: ValueRef,
        houses: u8,
    ) -> Result<ConstraintId, ModelError> {
        let m = &mut self.model;
        let x = |v: ValueRef| self.vars[v.group][v.value];
        // The houses `h` of a value for which `pick(h)` holds.
        let houses_where = |pick: &dyn Fn(u8) -> bool| -> Vec<i64> {
            (1..=houses).filter(|&h| pick(h)).map(i64::from).collect()
        };
        match (left, right) {
            (Operand::Value(a), Operand::Value(b)) => match op {
                Cmp::Lt => m.less(x(a), x(b)),
                Cmp::Le => m.less_eq(x(a), x(b)),
                Cmp::Gt => m.greater(x(a), x(b)),
                Cmp::Ge => m.greater_eq(x(a), x(b)),
            },
            (Operand::Value(a), Operand::House(k)) => {
                m.in_set(x(a), &houses_where(&|h| op.holds(h, k)))
            }
            (Operand::House(k), Operand::Value(b)) => {
                m.in_set(x(b), &houses_where(&|h| op.holds(k, h)))
            }
            // Two numbers (the middle of `a < 2 < 3`): always true or never.
            (Operand::House(j), Operand::House(k)) => {
                let all = if op.holds(j, k) {
                    houses_where(&|_| true)
                } else {
                    Vec::new()
                };
                m.in_set(x(anchor), &all)
            }
        }
    }
}

/// The first value among operands; the parser guarantees one.
fn first_value<const N: usize>(ops: [Operand; N]) -> ValueRef {
    ops.into_iter()
        .find_map(|o| match o {
            Operand::Value(v) => Some(v),
            Operand::House(_) => None,
        })
        .expect("the parser rejects comparisons without a value")
}

/// A set of clues that contradict each other ([`Puzzle::minimal_conflict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinimalConflict {
    /// The clues' indices, in the puzzle's order.
    pub clues: Vec<usize>,
    /// Whether every clue is shown needed: a search found a solution
    /// without each. False when a limit cut one of those searches short.
    pub proven: bool,
}
