//! The everyday functions beside validation: percent-encoding (RFC 3986 2.1), query pairs, URI Template
//! expansion (RFC 6570), `make_relative` (the inverse of RFC 3986 5.2), IRI <-> URI (RFC 3987 3.1, 3.2),
//! `fix` (repairing a near-URI) and the errors of edits (`BuildError`). Each is a thin layer over the
//! crate's public function of the same name; the `with_*` edits of `UriRef` are in `lib.rs`, on the
//! class, and use [`build_error`].

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyMapping, PyString, PyTuple};
use rfc3986::percent::{self, Component, DecodeError};
use rfc3986::recompose::BuildError as RustBuildError;
use rfc3986::repair;
use rfc3986::template::{UriTemplate, Value};
use rfc3986::{QueryPairs, Uri};

use crate::errors::{parse_error, Source};
use crate::{char_offset, guard, maybe_detach, redact, TemplateError};

pyo3::create_exception!(
    rfc3986_strict,
    BuildError,
    PyValueError,
    "An edit or a build would not give a URI reference (RFC 3986 3, 3.3, 4.2): a component outside its \
     rule, a path that cannot follow (or stand without) an authority, a colon in the first segment of a \
     relative-path reference, a port or userinfo without a host. The value edited is unchanged."
);

pyo3::create_exception!(
    rfc3986_strict,
    UnrepairableError,
    PyValueError,
    "fix() cannot make a URI reference of the text by percent-encoding.\n\n\
     Attributes: cause (kebab-case: syntax, template, format-placeholder, regular-expression, markup, \
     whitespace, delimiters, host), offset (index in the input str of the character that stopped the \
     repair), byte_offset (the same in UTF-8 bytes), partial (the text with the repairs made before the \
     stop), input. The message never names a character of a userinfo password."
);

/// A `BuildError` for `error`; the text of a rejected userinfo is not shown (it may be a password,
/// RFC 3986 3.2.1, 7.5).
pub(crate) fn build_error(error: RustBuildError) -> PyErr {
    if let RustBuildError::InvalidComponent {
        component: "userinfo",
        error,
    } = &error
    {
        return BuildError::new_err(format!(
            "invalid userinfo (RFC 3986 3.2.1): {} (the character is not shown)",
            error.kind().name()
        ));
    }
    BuildError::new_err(error.to_string())
}

fn component_named(name: &str) -> PyResult<Component> {
    Component::ALL
        .into_iter()
        .find(|c| c.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown component {name:?}: userinfo, host, path, segment, query or fragment \
                 (the scheme and the port have no percent-encoding)"
            ))
        })
}

fn decode_error(e: DecodeError, text: &str) -> PyErr {
    PyValueError::new_err(format!("at offset {}: {e}", char_offset(text, e.offset())))
}

/// percent_encode(text, component)
/// --
///
/// `text` percent-encoded for `component` ("userinfo", "host" (a reg-name), "path", "segment" (one
/// path segment: "/" encoded), "query", "fragment"): every character the component's rule does not
/// allow becomes "%" and two upper-case hex digits per UTF-8 octet (RFC 3986 2.1, 2.5); unreserved
/// characters stay (2.3) and "%" becomes "%25" (2.4). The result always matches the component's rule.
/// ValueError for an unknown component.
#[pyfunction]
pub(crate) fn percent_encode(py: Python<'_>, text: &str, component: &str) -> PyResult<String> {
    guard(|| {
        let component = component_named(component)?;
        Ok(maybe_detach(py, text.len(), || {
            percent::encode(text, component).into_owned()
        }))
    })
}

/// percent_decode(text)
/// --
///
/// The text with every "%XX" triplet decoded and read as UTF-8 (RFC 3986 2.1, 2.5); "+" stays "+".
/// ValueError (with the offset in the str) for a "%" not followed by two hex digits or octets that are
/// not UTF-8; percent_decode_bytes() gives the octets.
#[pyfunction]
pub(crate) fn percent_decode(py: Python<'_>, text: &str) -> PyResult<String> {
    guard(|| {
        maybe_detach(py, text.len(), || {
            percent::decode_utf8(text).map(|s| s.into_owned())
        })
        .map_err(|e| decode_error(e, text))
    })
}

/// percent_decode_bytes(text)
/// --
///
/// The octets of `text` with every "%XX" triplet decoded (RFC 3986 2.1), as bytes. ValueError for a
/// "%" not followed by two hex digits.
#[pyfunction]
pub(crate) fn percent_decode_bytes<'py>(
    py: Python<'py>,
    text: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    guard(|| {
        percent::decode(text)
            .map(|b| PyBytes::new(py, &b))
            .map_err(|e| decode_error(e, text))
    })
}

/// query_pairs(query)
/// --
///
/// The `key=value` pairs of a query component as written (without its "?"), decoded as HTML forms
/// do (application/x-www-form-urlencoded): pairs separated by "&", empty pieces skipped, a piece
/// without "=" is a key with the value "", "+" is a space, then "%XX" is decoded as UTF-8 (U+FFFD for
/// octets that are not). RFC 3986 3.4 gives the query no inner structure; this is the common
/// convention. A list of (key, value) tuples.
#[pyfunction]
pub(crate) fn query_pairs(py: Python<'_>, query: &str) -> PyResult<Vec<(String, String)>> {
    guard(|| {
        Ok(maybe_detach(py, query.len(), || {
            // `QueryPairs::new` is the form reading: "+" is a space ("%2B" is a "+").
            QueryPairs::new(query)
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        }))
    })
}

/// A template variable's value from Python: a str (or int/float, written with str()), a list or tuple
/// of them, a mapping of them (kept in order), or None (undefined).
fn template_value(value: &Bound<'_, PyAny>) -> PyResult<Option<Value>> {
    fn scalar(v: &Bound<'_, PyAny>) -> PyResult<String> {
        if let Ok(s) = v.cast::<PyString>() {
            return Ok(s.to_str()?.to_owned());
        }
        if v.is_instance_of::<pyo3::types::PyBool>() || v.is_none() {
            return Err(PyValueError::new_err(format!(
                "a template value must be a str or a number, not {}",
                v.repr()?
            )));
        }
        if v.is_instance_of::<pyo3::types::PyInt>() || v.is_instance_of::<pyo3::types::PyFloat>() {
            return Ok(v.str()?.to_str()?.to_owned());
        }
        Err(PyValueError::new_err(format!(
            "a template value must be a str or a number, not {}",
            v.get_type().name()?
        )))
    }
    if value.is_none() {
        return Ok(None);
    }
    if let Ok(m) = value.cast::<PyMapping>() {
        let mut pairs = Vec::new();
        for item in m.items()?.iter() {
            let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            pairs.push((scalar(&k)?, scalar(&v)?));
        }
        return Ok(Some(Value::Map(pairs)));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items = value
            .try_iter()?
            .map(|v| scalar(&v?))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Some(Value::List(items)));
    }
    Ok(Some(Value::String(scalar(value)?)))
}

/// expand_template(template, variables)
/// --
///
/// The URI Template `template` (RFC 6570 section 2) expanded with `variables` (section 3, levels 1 to
/// 4), a mapping of names to values: a str (numbers are written with str()), a list or tuple of str
/// (a list), a dict of str (an associative array, in its order), or None (undefined, as a missing
/// name, an empty list or an empty dict: section 2.3). Returns a str, always ASCII; it is a URI
/// reference for a template of one (check with validate() when unsure). Raises TemplateError for a
/// template outside the grammar, a reserved operator (2.2) or a prefix on a list or dict (2.4.1);
/// ValueError for a value of another type.
#[pyfunction]
pub(crate) fn expand_template(
    py: Python<'_>,
    template: &str,
    variables: &Bound<'_, PyAny>,
) -> PyResult<String> {
    guard(|| {
        let mapping = variables
            .cast::<PyMapping>()
            .map_err(|_| PyValueError::new_err("variables must be a mapping (a dict)"))?;
        let mut vars: Vec<(String, Value)> = Vec::new();
        for item in mapping.items()?.iter() {
            let (k, v): (String, Bound<'_, PyAny>) = item.extract()?;
            if let Some(value) = template_value(&v)? {
                vars.push((k, value));
            }
        }
        let parsed = UriTemplate::parse(template).map_err(|e| template_error(py, template, &e))?;
        parsed
            .expand(&vars)
            .map_err(|e| template_error(py, template, &e))
    })
}

/// A `TemplateError` with `offset`, `byte_offset` and `input` set.
pub(crate) fn template_error(
    py: Python<'_>,
    text: &str,
    e: &rfc3986::template::TemplateError,
) -> PyErr {
    {
        let offset = char_offset(text, e.offset());
        let err = TemplateError::new_err(e.to_string());
        let value = err.value(py);
        let set = || -> PyResult<()> {
            value.setattr("offset", offset)?;
            value.setattr("byte_offset", e.offset())?;
            value.setattr("input", text)
        };
        match set() {
            Ok(()) => err,
            Err(other) => other,
        }
    }
}

/// make_relative(base, target)
/// --
///
/// A reference, as short as it can be made, that resolves against the URI `base` to exactly the URI
/// `target` (RFC 3986 5.2.2 with strict=True, compared as text): "#f", "?y", "../g", "/g", "//g/x",
/// or `target` itself when the schemes differ. None when no reference does (the target's path holds a
/// dot-segment, which resolution would remove, 5.2.4). Raises ParseError when either is not a URI.
#[pyfunction]
pub(crate) fn make_relative(py: Python<'_>, base: &str, target: &str) -> PyResult<Option<String>> {
    guard(|| {
        let b = Uri::parse(base).map_err(|e| parse_error(py, e, base, Source::Uri))?;
        let t = Uri::parse(target).map_err(|e| parse_error(py, e, target, Source::Uri))?;
        Ok(rfc3986::resolve::make_relative(&b, &t).map(|r| r.into_string()))
    })
}

/// iri_to_uri(iri)
/// --
///
/// The URI (reference) an IRI (reference) stands for (RFC 3987 3.1 step 2): every non-ASCII
/// character replaced by its UTF-8 octets percent-encoded ("%C3%A9"); everything else kept, so a URI
/// is returned as it is. The host is encoded like the rest (no IDNA). Never raises for a str.
#[pyfunction]
pub(crate) fn iri_to_uri(py: Python<'_>, iri: &str) -> String {
    maybe_detach(py, iri.len(), || rfc3986::iri::iri_to_uri(iri).into_owned())
}

/// uri_to_iri(uri)
/// --
///
/// The IRI for a URI (RFC 3987 3.2): "%XX" sequences that decode to UTF-8 characters allowed in an
/// IRI become those characters; reserved characters, "%25", octets that are not UTF-8 and
/// bidirectional formatting characters stay encoded. Never raises for a str.
#[pyfunction]
pub(crate) fn uri_to_iri(py: Python<'_>, uri: &str) -> String {
    maybe_detach(py, uri.len(), || rfc3986::iri::uri_to_iri(uri).into_owned())
}

/// One character fix() percent-encoded.
#[pyclass(frozen, eq, hash, module = "rfc3986_strict", name = "Repair")]
#[derive(PartialEq, Eq, Hash, Clone)]
pub(crate) struct PyRepair {
    /// Index of the character in the input str.
    #[pyo3(get)]
    offset: usize,
    /// The same in UTF-8 bytes.
    #[pyo3(get)]
    byte_offset: usize,
    /// The character that was encoded.
    #[pyo3(get)]
    found: String,
    /// What it became: "%20", "%C3%A9".
    #[pyo3(get)]
    replacement: String,
    /// Why, kebab-case: space, not-allowed, non-ascii, percent-sign, second-hash, bracket.
    #[pyo3(get)]
    reason: &'static str,
    /// The RFC section that asks for it: "RFC 3986 2.1".
    #[pyo3(get)]
    section: &'static str,
}

#[pymethods]
impl PyRepair {
    fn __repr__(&self) -> String {
        format!(
            "Repair(offset={}, found={:?}, replacement={:?}, reason={:?})",
            self.offset, self.found, self.replacement, self.reason
        )
    }
}

/// fix()'s result: the repaired text and the repairs.
#[pyclass(frozen, module = "rfc3986_strict", name = "Fixed")]
pub(crate) struct PyFixed {
    /// The repaired text: always a URI-reference (RFC 3986 4.1).
    #[pyo3(get)]
    text: String,
    /// The repairs, in input order; empty when the input was already a URI reference.
    #[pyo3(get)]
    repairs: Vec<PyRepair>,
}

#[pymethods]
impl PyFixed {
    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("Fixed({:?}, {} repairs)", self.text, self.repairs.len())
    }
}

fn repairs_of(input: &str, repairs: &[repair::Repair]) -> Vec<PyRepair> {
    repairs
        .iter()
        .map(|r| PyRepair {
            offset: char_offset(input, r.offset()),
            byte_offset: r.offset(),
            found: r.found().to_string(),
            replacement: r.replacement(),
            reason: r.reason().name(),
            section: r.reason().section(),
        })
        .collect()
}

/// fix(text)
/// --
///
/// Makes a URI reference of a near-URI by percent-encoding what no URI contains (RFC 3986 2.1, 2.4,
/// 2.5, 3.5, 3.2.2): spaces, non-ASCII characters (as UTF-8, as RFC 3987 3.1 maps an IRI), a "%" that
/// starts no triplet, a second "#", brackets outside the host. Returns a Fixed (`text`, `repairs`);
/// a valid input comes back unchanged with no repairs. Raises UnrepairableError when encoding cannot
/// help (a port with letters, a template, a format placeholder, a pattern, markup, whitespace or
/// delimiters around the URI, a host no name has: see its `cause`).
#[pyfunction]
pub(crate) fn fix(py: Python<'_>, text: &str) -> PyResult<PyFixed> {
    guard(
        || match maybe_detach(py, text.len(), || repair::fix(text)) {
            Ok(fixed) => Ok(PyFixed {
                repairs: repairs_of(text, fixed.repairs()),
                text: fixed.into_string(),
            }),
            Err(stop) => {
                // The cause's advice, then what the grammar says (message and hint, without naming a
                // character of a password).
                let said = redact::explain(stop.error(), stop.partial().as_bytes());
                let message = [
                    stop.cause().advice().map(String::from),
                    Some(said.message),
                    said.hint,
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("; ");
                let offset = char_offset(text, stop.offset());
                let err = UnrepairableError::new_err(format!(
                    "cannot repair at offset {offset}: {message}"
                ));
                let value = err.value(py);
                let set = || -> PyResult<()> {
                    value.setattr("cause", stop.cause().name())?;
                    value.setattr("offset", offset)?;
                    value.setattr("byte_offset", stop.offset())?;
                    value.setattr("partial", stop.partial())?;
                    value.setattr("input", text)
                };
                Err(match set() {
                    Ok(()) => err,
                    Err(other) => other,
                })
            }
        },
    )
}

/// Registers this module's functions and classes on the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BuildError", m.py().get_type::<BuildError>())?;
    m.add("UnrepairableError", m.py().get_type::<UnrepairableError>())?;
    m.add_class::<PyRepair>()?;
    m.add_class::<PyFixed>()?;
    m.add_function(wrap_pyfunction!(percent_encode, m)?)?;
    m.add_function(wrap_pyfunction!(percent_decode, m)?)?;
    m.add_function(wrap_pyfunction!(percent_decode_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(query_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(expand_template, m)?)?;
    m.add_function(wrap_pyfunction!(make_relative, m)?)?;
    m.add_function(wrap_pyfunction!(iri_to_uri, m)?)?;
    m.add_function(wrap_pyfunction!(uri_to_iri, m)?)?;
    m.add_function(wrap_pyfunction!(fix, m)?)?;
    Ok(())
}
