//! The exceptions: a `ModelError` hierarchy, one subclass a kind of
//! mistake, each carrying the facts of its Rust error as attributes, and
//! `Diagnostic`, one positioned problem of a `ParseError`.
//!
//! ```text
//! ValueError
//! └── ModelError
//!     ├── DuplicateNameError   .name
//!     ├── UnknownNameError     .name
//!     ├── ForeignIdError       .kind ("variable" | "constraint"), .index
//!     ├── RangeError           .value (a value, count or size outside its range; an empty domain)
//!     ├── LimitError           .found, .limit (too many variables in a group, too much state)
//!     ├── ShapeError           arguments that do not fit together (offsets, values to hold)
//!     ├── NotUniqueError       .verdict (minimizing a puzzle that is not unique)
//!     ├── EnglishError         .clue (a clue with no English sentence)
//!     └── ParseError           .diagnostics, .line, .column, .code, .path
//! ```
//!
//! Invariant: every mapping here takes the Rust error's message as the
//! exception's message, so Python users read what Rust users read.

use bitfd::ModelError as RustModelError;
use bitfd::puzzle::ParseErrors;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    bitfd,
    ModelError,
    PyValueError,
    "Something passed to a Model or a puzzle tool is wrong; the message is \
the Rust library's. Its subclasses say which kind of mistake it is."
);
create_exception!(
    bitfd,
    DuplicateNameError,
    ModelError,
    "A variable with this name exists already; `name` is the name."
);
create_exception!(
    bitfd,
    UnknownNameError,
    ModelError,
    "No variable has this name; `name` is the name looked up."
);
create_exception!(
    bitfd,
    ForeignIdError,
    ModelError,
    "A variable or constraint handle of another model; `kind` is \
\"variable\" or \"constraint\", `index` its index in its own model."
);
create_exception!(
    bitfd,
    RangeError,
    ModelError,
    "A value, constant or size outside its range, or a variable with no \
value; `value` is the value given (None for an empty domain)."
);
create_exception!(
    bitfd,
    LimitError,
    ModelError,
    "More than a limit allows (variables in one group, search state); \
`found` and `limit` are the two numbers."
);
create_exception!(
    bitfd,
    ShapeError,
    ModelError,
    "Arguments that do not fit together: offsets not one a variable, more \
values to hold than variables to hold them."
);
create_exception!(
    bitfd,
    NotUniqueError,
    ModelError,
    "A puzzle that must be unique is not (minimizing); `verdict` says what \
it is instead."
);
create_exception!(
    bitfd,
    EnglishError,
    ModelError,
    "A puzzle that cannot be written in English: `clue` (from 0) has a \
relation no English sentence says."
);
create_exception!(
    bitfd,
    ParseError,
    ModelError,
    "A puzzle's or a board's text could not be read. The message holds every \
diagnostic, one a line (`line:column: error[code]: message`); \
`diagnostics` lists them as `Diagnostic`s, and `line`, `column`, `code` \
are the first one's (None where the input has no lines: JSON paths are in \
`path`)."
);

/// Adds the exceptions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ModelError", py.get_type::<ModelError>())?;
    m.add("DuplicateNameError", py.get_type::<DuplicateNameError>())?;
    m.add("UnknownNameError", py.get_type::<UnknownNameError>())?;
    m.add("ForeignIdError", py.get_type::<ForeignIdError>())?;
    m.add("RangeError", py.get_type::<RangeError>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    m.add("ShapeError", py.get_type::<ShapeError>())?;
    m.add("NotUniqueError", py.get_type::<NotUniqueError>())?;
    m.add("EnglishError", py.get_type::<EnglishError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add_class::<Diagnostic>()?;
    Ok(())
}

/// `err` with the attributes set. Setting an attribute on a fresh exception
/// instance fails only when memory does, and then the exception still says
/// what is wrong in its message.
fn with_attrs<'py>(py: Python<'py>, err: PyErr, attrs: &[(&str, Bound<'py, PyAny>)]) -> PyErr {
    let value = err.value(py);
    for (name, v) in attrs {
        let _ = value.setattr(*name, v);
    }
    err
}

/// The Python exception for a Rust model error: its subclass, message and
/// facts. Called with the interpreter held, so attaching is free.
pub(crate) fn model_error(e: &RustModelError) -> PyErr {
    Python::attach(|py| model_error_in(py, e))
}

fn model_error_in(py: Python<'_>, e: &RustModelError) -> PyErr {
    let message = e.to_string();
    let int = |n: i64| n.into_pyobject(py).expect("an int converts").into_any();
    let size = |n: usize| n.into_pyobject(py).expect("an int converts").into_any();
    let none = || py.None().into_bound(py);
    let text = |s: &str| s.into_pyobject(py).expect("a str converts").into_any();
    match e {
        RustModelError::DuplicateName { name } => with_attrs(
            py,
            DuplicateNameError::new_err(message),
            &[("name", text(name))],
        ),
        RustModelError::UnknownName { name } => with_attrs(
            py,
            UnknownNameError::new_err(message),
            &[("name", text(name))],
        ),
        RustModelError::ValueOutOfRange { value, .. } => {
            with_attrs(py, RangeError::new_err(message), &[("value", int(*value))])
        }
        RustModelError::EmptyDomain { .. } => {
            with_attrs(py, RangeError::new_err(message), &[("value", none())])
        }
        RustModelError::ForeignVariable { index } => foreign_in(py, "variable", *index, message),
        RustModelError::TooManyVariables { found, limit }
        | RustModelError::StateTooLarge {
            words: found,
            limit,
        } => with_attrs(
            py,
            LimitError::new_err(message),
            &[("found", size(*found)), ("limit", size(*limit))],
        ),
        RustModelError::UncoverableValues { .. } | RustModelError::OffsetCountMismatch { .. } => {
            ShapeError::new_err(message)
        }
        // The enum is non-exhaustive: a kind added later is still a ModelError.
        _ => ModelError::new_err(message),
    }
}

/// A `ForeignIdError` for the handle `index` of another model.
pub(crate) fn foreign(kind: &str, index: usize, message: String) -> PyErr {
    Python::attach(|py| foreign_in(py, kind, index, message))
}

fn foreign_in(py: Python<'_>, kind: &str, index: usize, message: String) -> PyErr {
    let attrs = [
        ("kind", kind.into_pyobject(py).expect("a str").into_any()),
        ("index", index.into_pyobject(py).expect("an int").into_any()),
    ];
    with_attrs(py, ForeignIdError::new_err(message), &attrs)
}

/// A `RangeError` whose value is `value`.
pub(crate) fn range_error(py: Python<'_>, value: i128, message: String) -> PyErr {
    let v = value.into_pyobject(py).expect("an int").into_any();
    with_attrs(py, RangeError::new_err(message), &[("value", v)])
}

/// One problem found in a puzzle's text: where, what kind, what.
///
/// >>> try:
/// ...     Puzzle.parse("houses 3\nname: Peter Eric\nPeterr = 4\n")
/// ... except ParseError as e:
/// ...     d = e.diagnostics[0]
/// >>> d
/// Diagnostic(line=3, column=1, code='unknown-name', message='unknown name `Peterr`')
#[pyclass(module = "bitfd", frozen)]
pub(crate) struct Diagnostic {
    /// The line, from 1.
    #[pyo3(get)]
    line: u32,
    /// The column in characters, from 1.
    #[pyo3(get)]
    column: u32,
    /// The kind, as a stable kebab-case code: `unknown-name`.
    #[pyo3(get)]
    code: &'static str,
    /// The headline, lowercase with no final period.
    #[pyo3(get)]
    message: String,
    /// What was expected there (may be empty).
    #[pyo3(get)]
    expected: String,
    /// Further lines: candidates, suggestions (`help: did you mean ...`).
    #[pyo3(get)]
    notes: Vec<String>,
    /// The whole diagnostic on one line and its notes, as `str()` gives it.
    text: String,
}

#[pymethods]
impl Diagnostic {
    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let message = self.message.as_str().into_pyobject(py)?.repr()?;
        Ok(format!(
            "Diagnostic(line={}, column={}, code='{}', message={message})",
            self.line, self.column, self.code
        ))
    }
}

/// The Python exception for a parse failure: every diagnostic, one a line,
/// prefixed with `prefix`; the first one's position as `line`, `column`
/// and `code`.
pub(crate) fn parse_error(py: Python<'_>, e: &ParseErrors, prefix: &str) -> PyErr {
    let lines: Vec<String> = e.diagnostics().iter().map(|d| d.to_string()).collect();
    let mut message = format!("{prefix}{}", lines.join("\n"));
    if e.omitted() > 0 {
        message.push_str(&format!("\n({} more errors)", e.omitted()));
    }
    let diagnostics: Vec<Diagnostic> = e
        .diagnostics()
        .iter()
        .zip(lines)
        .map(|(d, text)| Diagnostic {
            line: d.spot.line,
            column: d.spot.column,
            code: d.kind.code(),
            message: d.message.clone(),
            expected: d.expected.clone(),
            notes: d.notes.clone(),
            text,
        })
        .collect();
    let first = diagnostics.first().map(|d| (d.line, d.column, d.code));
    let err = ParseError::new_err(message);
    let value = err.value(py);
    // As in `with_attrs`: only memory can make these fail.
    let _ = value.setattr("line", first.map(|f| f.0));
    let _ = value.setattr("column", first.map(|f| f.1));
    let _ = value.setattr("code", first.map(|f| f.2));
    let _ = value.setattr("path", py.None());
    let _ = value.setattr("diagnostics", diagnostics);
    err
}

/// A `ParseError` with no diagnostics list of the text kind: a JSON
/// document's problem at `path`, or a board's at `column` of its line.
pub(crate) fn parse_error_at(
    py: Python<'_>,
    message: String,
    line: Option<u64>,
    column: Option<u64>,
    path: Option<&str>,
) -> PyErr {
    let err = ParseError::new_err(message);
    let value = err.value(py);
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    let _ = value.setattr("code", py.None());
    let _ = value.setattr("path", path);
    let _ = value.setattr("diagnostics", Vec::<Diagnostic>::new());
    err
}
