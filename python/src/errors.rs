//! `ParseError`, raised cheaply: what a rejection says is worked out when it is read.
//!
//! The exception class is plain Python (`rfc3986_strict/_errors.py`, looked up once); its only argument
//! is a [`Diagnosis`], which holds the crate's `ParseError` and the input. Raising one costs one small
//! object; the fields (`offset`, `kind`, `message`, `hint`, `expected`, ...) and the text of `str()` are
//! computed from it when they are read, so `try: validate(s) except ParseError: ...` over many
//! inputs pays for no message it does not print. A `Diagnosis` pickles as the input and the rule, and is
//! worked out again on the other side (the parse is deterministic), so a `ParseError` crosses process
//! boundaries (multiprocessing, Dask) with all its fields.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::{char_offset, iri_grammar, redact, rule_named};

/// Which grammar rejected the input: RFC 3986 (the crate's) or RFC 3987 (the IRI grammar).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    Uri,
    Iri,
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::Uri => "uri",
            Source::Iri => "iri",
        }
    }
}

/// The arguments of [`_rediagnose`]: grammar, rule, input.
type Rediagnose = (&'static str, String, String);

/// What a rejection says, computed when read: the argument of a `ParseError`.
#[pyclass(frozen, module = "rfc3986_strict._native", name = "_Diagnosis")]
pub(crate) struct Diagnosis {
    error: rfc3986::ParseError,
    input: String,
    grammar: Source,
}

#[pymethods]
impl Diagnosis {
    /// Index in the Python str of the first character the rule cannot accept.
    #[getter]
    fn offset(&self) -> usize {
        char_offset(&self.input, self.error.offset())
    }

    /// The same offset in UTF-8 bytes.
    #[getter]
    fn byte_offset(&self) -> usize {
        self.error.offset()
    }

    #[getter]
    fn kind(&self) -> &'static str {
        redact::kind(&self.error, self.input.as_bytes())
    }

    #[getter]
    fn rule(&self) -> &str {
        self.error.rule_name()
    }

    #[getter]
    fn found(&self) -> Option<String> {
        self.error.found().map(String::from)
    }

    #[getter]
    fn expected(&self) -> Vec<String> {
        self.error
            .expected()
            .iter()
            .map(|x| x.to_string())
            .collect()
    }

    #[getter]
    fn hint(&self) -> Option<String> {
        redact::explain(&self.error, self.input.as_bytes()).hint
    }

    #[getter]
    fn message(&self) -> String {
        redact::explain(&self.error, self.input.as_bytes()).message
    }

    #[getter]
    fn input(&self) -> &str {
        &self.input
    }

    /// `at offset N: DETAIL`, the text of `str(ParseError)`.
    #[getter]
    fn text(&self) -> String {
        let detail = redact::detail(&self.error, self.input.as_bytes());
        format!("at offset {}: {detail}", self.offset())
    }

    /// Pickled as `_rediagnose(grammar, rule, input)`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Rediagnose)> {
        let again = py
            .import("rfc3986_strict._native")?
            .getattr("_rediagnose")?;
        Ok((
            again,
            (
                self.grammar.name(),
                self.error.rule_name().to_string(),
                self.input.clone(),
            ),
        ))
    }
}

/// _rediagnose(grammar, rule, input)
/// --
///
/// The diagnosis of `input` against `rule` of `grammar` ("uri" or "iri"), made again: how a pickled
/// ParseError is restored. ValueError if the input is valid or the names unknown.
#[pyfunction]
pub(crate) fn _rediagnose(grammar: &str, rule: &str, input: &str) -> PyResult<Diagnosis> {
    let (error, grammar) = match grammar {
        "uri" => (
            rfc3986::validate(rule_named(rule)?, input).err(),
            Source::Uri,
        ),
        "iri" => {
            let entry = iri_grammar()?
                .entry(rule)
                .map_err(|e| PyValueError::new_err(format!("unknown IRI rule: {e}")))?;
            (entry.parse(input).err(), Source::Iri)
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown grammar {other:?} (\"uri\" or \"iri\")"
            )))
        }
    };
    let error = error.ok_or_else(|| {
        PyValueError::new_err(format!("{input:?} is valid {rule}: nothing to diagnose"))
    })?;
    Ok(Diagnosis {
        error,
        input: input.to_string(),
        grammar,
    })
}

/// The `ParseError` class of `rfc3986_strict._errors`, looked up once.
fn class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    CLASS.import(py, "rfc3986_strict._errors", "ParseError")
}

/// A `ParseError` for `error`, found in `text` by `grammar`; made when Python first sees it.
pub(crate) fn parse_error(
    py: Python<'_>,
    error: rfc3986::ParseError,
    text: &str,
    grammar: Source,
) -> PyErr {
    match class(py) {
        Ok(class) => PyErr::from_type(
            class.clone(),
            (Diagnosis {
                error,
                input: text.to_string(),
                grammar,
            },),
        ),
        Err(e) => e,
    }
}
