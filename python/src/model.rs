//! `Model`, `Var` and `Constraint`: the Rust [`bitfd::Model`] with Python
//! handles.
//!
//! Invariant: a handle carries the `uid` of the Python model that made it,
//! and every method checks it before the Rust model sees the handle, so a
//! handle of another model raises `ModelError` (the Rust error's
//! `ForeignVariable` message) instead of reaching a Rust assertion.

use std::sync::atomic::{AtomicU64, Ordering};

use bitfd::{ConstraintId, Domain, ModelError as RustModelError, Strength, VarId};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{foreign, model_error};

/// The next model's `uid`: every Python model gets its own, never reused.
static NEXT_UID: AtomicU64 = AtomicU64::new(1);

/// A variable of a `Model`: its name and index (declaration order).
#[pyclass(module = "bitfd", frozen, eq, hash, skip_from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Var {
    /// The variable's name, as declared.
    #[pyo3(get)]
    name: String,
    /// The Rust handle; its index is the declaration order.
    pub(crate) id: VarId,
    /// The owning Python model's `uid`.
    pub(crate) uid: u64,
}

#[pymethods]
impl Var {
    /// The variable's position in declaration order (0 for the first).
    #[getter]
    fn index(&self) -> usize {
        self.id.index()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let name = PyString::new(py, &self.name).repr()?;
        Ok(format!("Var({name}, index={})", self.id.index()))
    }

    fn __str__(&self) -> String {
        self.name.clone()
    }
}

/// A posted constraint: its index (posting order) and kind.
#[pyclass(module = "bitfd", frozen, eq, hash, skip_from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Constraint {
    /// The kind, as traces print it (`less`, `all-different`, ...).
    #[pyo3(get)]
    kind: &'static str,
    /// The Rust handle; its index is the posting order.
    id: ConstraintId,
    /// The owning Python model's `uid`.
    uid: u64,
}

#[pymethods]
impl Constraint {
    /// The constraint's position in posting order (0 for the first).
    #[getter]
    fn index(&self) -> usize {
        self.id.index()
    }

    fn __repr__(&self) -> String {
        format!("Constraint('{}', index={})", self.kind, self.id.index())
    }
}

/// A variable argument: a `Var` of this model, or a variable's name.
#[derive(FromPyObject)]
pub(crate) enum VarArg<'py> {
    /// A handle.
    Var(PyRef<'py, Var>),
    /// A name, looked up in the model.
    Name(String),
}

/// A finite-domain model: named integer variables over `0..=63` and
/// constraints on them. Variables are passed as `Var`s or by name.
///
/// >>> m = Model()
/// >>> x = m.int_var("x", 1, 3)
/// >>> y = m.var_in("y", [2, 3])
/// >>> m.less(x, "y")
/// Constraint('less', index=0)
/// >>> Solver(m).count()
/// 3
#[pyclass(module = "bitfd")]
pub(crate) struct Model {
    pub(crate) inner: bitfd::Model,
    /// This model's identity, carried by its handles.
    pub(crate) uid: u64,
}

impl Model {
    /// Wraps a Rust model (a puzzle's) with a fresh `uid`.
    pub(crate) fn wrap(inner: bitfd::Model) -> Model {
        Model {
            inner,
            uid: NEXT_UID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The handle of `x`, which must be of this model.
    fn handle(&self, x: VarId) -> Var {
        Var {
            name: self.inner.name(x).to_owned(),
            id: x,
            uid: self.uid,
        }
    }

    /// The Rust handle of a variable argument.
    pub(crate) fn resolve(&self, x: &VarArg<'_>) -> PyResult<VarId> {
        match x {
            VarArg::Var(v) if v.uid == self.uid => Ok(v.id),
            VarArg::Var(v) => Err(model_error(&RustModelError::ForeignVariable {
                index: v.id.index(),
            })),
            VarArg::Name(name) => self.inner.var(name).map_err(|e| model_error(&e)),
        }
    }

    fn resolve_all(&self, xs: &[VarArg<'_>]) -> PyResult<Vec<VarId>> {
        xs.iter().map(|x| self.resolve(x)).collect()
    }

    /// The Rust handle of a constraint, which must be of this model.
    fn own(&self, c: &Constraint) -> PyResult<ConstraintId> {
        if c.uid == self.uid {
            Ok(c.id)
        } else {
            let index = c.id.index();
            let message = format!("constraint #{index} belongs to another model");
            Err(foreign("constraint", index, message))
        }
    }

    /// Wraps a posting's result, labelling the constraint when asked.
    fn posted(
        &mut self,
        result: Result<ConstraintId, RustModelError>,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let c = result.map_err(|e| model_error(&e))?;
        if let Some(label) = label {
            self.inner.set_label(c, label);
        }
        Ok(Constraint {
            kind: self.inner.constraint(c).kind(),
            id: c,
            uid: self.uid,
        })
    }
}

/// Reads an all-different strength: `"domain"` or `"value"`.
pub(crate) fn strength(s: &str) -> PyResult<Strength> {
    match s {
        "domain" => Ok(Strength::Domain),
        "value" => Ok(Strength::Value),
        _ => Err(PyValueError::new_err(format!(
            "unknown strength {s:?}: expected \"domain\" or \"value\""
        ))),
    }
}

/// The set of `values`, each checked to lie in `0..=63`.
fn domain_of(values: &[i64]) -> PyResult<Domain> {
    let mut d = Domain::EMPTY;
    for &v in values {
        match u8::try_from(v) {
            Ok(b) if b <= Domain::MAX_VALUE => d |= Domain::singleton(b),
            _ => {
                return Err(model_error(&RustModelError::ValueOutOfRange {
                    value: v,
                    what: "a value (0..=63)",
                }));
            }
        }
    }
    Ok(d)
}

#[pymethods]
impl Model {
    #[new]
    fn new() -> Model {
        Model::wrap(bitfd::Model::new())
    }

    /// Declares a variable `name` with the values `lo..=hi` (within `0..=63`).
    #[pyo3(signature = (name, lo, hi))]
    fn int_var(&mut self, name: &str, lo: i64, hi: i64) -> PyResult<Var> {
        let x = self
            .inner
            .int_var(name, lo, hi)
            .map_err(|e| model_error(&e))?;
        Ok(self.handle(x))
    }

    /// Declares a variable `name` with the given values (within `0..=63`).
    fn var_in(&mut self, name: &str, values: Vec<i64>) -> PyResult<Var> {
        let x = self
            .inner
            .var_in(name, &values)
            .map_err(|e| model_error(&e))?;
        Ok(self.handle(x))
    }

    /// The variable called `name`.
    fn var(&self, name: &str) -> PyResult<Var> {
        let x = self.inner.var(name).map_err(|e| model_error(&e))?;
        Ok(self.handle(x))
    }

    /// Every variable, in declaration order.
    fn vars(&self) -> Vec<Var> {
        self.inner.vars().map(|x| self.handle(x)).collect()
    }

    /// The initial domain of `x`, ascending.
    fn domain(&self, x: VarArg<'_>) -> PyResult<Vec<u32>> {
        let x = self.resolve(&x)?;
        // `u32`, not `u8`: PyO3 makes a `Vec<u8>` `bytes`, and this is a list.
        Ok(self.inner.domain(x).iter().map(u32::from).collect())
    }

    /// The number of constraints posted.
    #[getter]
    fn constraint_count(&self) -> usize {
        self.inner.constraint_count()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Model(vars={}, constraints={})",
            self.inner.len(),
            self.inner.constraint_count()
        )
    }

    /// Posts `x = y`.
    #[pyo3(signature = (x, y, *, label = None))]
    fn equal(
        &mut self,
        x: VarArg<'_>,
        y: VarArg<'_>,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let (x, y) = (self.resolve(&x)?, self.resolve(&y)?);
        let r = self.inner.equal(x, y);
        self.posted(r, label)
    }

    /// Posts `x = v`.
    #[pyo3(signature = (x, v, *, label = None))]
    fn equal_value(
        &mut self,
        x: VarArg<'_>,
        v: i64,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let x = self.resolve(&x)?;
        let r = self.inner.equal_value(x, v);
        self.posted(r, label)
    }

    /// Posts `x != y`.
    #[pyo3(signature = (x, y, *, label = None))]
    fn not_equal(
        &mut self,
        x: VarArg<'_>,
        y: VarArg<'_>,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let (x, y) = (self.resolve(&x)?, self.resolve(&y)?);
        let r = self.inner.not_equal(x, y);
        self.posted(r, label)
    }

    /// Posts `x != v`.
    #[pyo3(signature = (x, v, *, label = None))]
    fn not_equal_value(
        &mut self,
        x: VarArg<'_>,
        v: i64,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let x = self.resolve(&x)?;
        let r = self.inner.not_equal_value(x, v);
        self.posted(r, label)
    }

    /// Posts `x in values`.
    #[pyo3(signature = (x, values, *, label = None))]
    fn in_set(
        &mut self,
        x: VarArg<'_>,
        values: Vec<i64>,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let x = self.resolve(&x)?;
        let r = self.inner.in_set(x, &values);
        self.posted(r, label)
    }

    /// Posts `x = y + c` (`c` in `-63..=63`).
    #[pyo3(signature = (x, y, c, *, label = None))]
    fn offset(
        &mut self,
        x: VarArg<'_>,
        y: VarArg<'_>,
        c: i64,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let (x, y) = (self.resolve(&x)?, self.resolve(&y)?);
        let r = self.inner.offset(x, y, c);
        self.posted(r, label)
    }

    /// Posts `|x - y| = c` (`c` in `0..=63`).
    #[pyo3(signature = (x, y, c, *, label = None))]
    fn distance(
        &mut self,
        x: VarArg<'_>,
        y: VarArg<'_>,
        c: i64,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let (x, y) = (self.resolve(&x)?, self.resolve(&y)?);
        let r = self.inner.distance(x, y, c);
        self.posted(r, label)
    }

    /// Posts `|x - y| != c` (`c` in `0..=63`).
    #[pyo3(signature = (x, y, c, *, label = None))]
    fn not_distance(
        &mut self,
        x: VarArg<'_>,
        y: VarArg<'_>,
        c: i64,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let (x, y) = (self.resolve(&x)?, self.resolve(&y)?);
        let r = self.inner.not_distance(x, y, c);
        self.posted(r, label)
    }

    /// Posts `x < y + c`; the default `c = 0` is `x < y`.
    #[pyo3(signature = (x, y, c = 0, *, label = None))]
    fn less(
        &mut self,
        x: VarArg<'_>,
        y: VarArg<'_>,
        c: i64,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let (x, y) = (self.resolve(&x)?, self.resolve(&y)?);
        let r = self.inner.less_offset(x, y, c);
        self.posted(r, label)
    }

    /// Posts `x <= y`.
    #[pyo3(signature = (x, y, *, label = None))]
    fn less_eq(
        &mut self,
        x: VarArg<'_>,
        y: VarArg<'_>,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let (x, y) = (self.resolve(&x)?, self.resolve(&y)?);
        let r = self.inner.less_eq(x, y);
        self.posted(r, label)
    }

    /// Posts that `vars[i] + offsets[i]` are pairwise different (offsets all
    /// zero when omitted), pruned at `strength` `"domain"` or `"value"`.
    #[pyo3(signature = (vars, strength = "domain", offsets = None, *, label = None))]
    fn all_different(
        &mut self,
        vars: Vec<VarArg<'_>>,
        strength: &str,
        offsets: Option<Vec<i64>>,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let s = crate::model::strength(strength)?;
        let vars = self.resolve_all(&vars)?;
        let r = match offsets {
            None => self.inner.all_different(&vars, s),
            Some(offsets) => self.inner.all_different_offsets(&vars, &offsets, s),
        };
        self.posted(r, label)
    }

    /// Posts that every value of `values` is taken by at least one of `vars`.
    #[pyo3(signature = (vars, values, *, label = None))]
    fn each_value_held(
        &mut self,
        vars: Vec<VarArg<'_>>,
        values: Vec<i64>,
        label: Option<String>,
    ) -> PyResult<Constraint> {
        let vars = self.resolve_all(&vars)?;
        let values = domain_of(&values)?;
        let r = self.inner.each_value_held(&vars, values);
        self.posted(r, label)
    }

    /// Labels `c` (a clue's sentence, say); traces and `describe` show it.
    fn set_label(&mut self, c: PyRef<'_, Constraint>, label: String) -> PyResult<()> {
        let c = self.own(&c)?;
        self.inner.set_label(c, label);
        Ok(())
    }

    /// The label of `c`, or `None`.
    fn label(&self, c: PyRef<'_, Constraint>) -> PyResult<Option<String>> {
        let c = self.own(&c)?;
        Ok(self.inner.label(c).map(str::to_owned))
    }

    /// The label of `c`, or its kind and variables: `less(x, y)`.
    fn describe(&self, c: PyRef<'_, Constraint>) -> PyResult<String> {
        let c = self.own(&c)?;
        Ok(self.inner.describe(c))
    }

    /// Every constraint, in posting order.
    fn constraints(&self) -> Vec<Constraint> {
        self.inner
            .constraints()
            .map(|(c, constraint)| Constraint {
                kind: constraint.kind(),
                id: c,
                uid: self.uid,
            })
            .collect()
    }
}
