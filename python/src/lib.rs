//! `rfc3986_strict._native`: the Python bindings of the `rfc3986` crate (PyO3, abi3).
//!
//! Two halves, both thin layers over the crate's public API:
//!
//! - the scalar API (`validate`, `is_valid`, `parse`, `resolve`, `normalize`, `equivalent`, `lint`,
//!   `validate_iri`, `validate_template`, `build` and the `UriRef.with_*` edits here; percent-encoding,
//!   query pairs, template expansion, `make_relative`, IRI <-> URI and `fix` in [`everyday`]), one
//!   Python `str` at a time, with `ParseError` made cheaply in [`errors`];
//! - the batch API (`batch_*`), over Apache Arrow arrays received and returned through the Arrow C data
//!   interface (PyCapsules, no copy of the input; [`column`]), computed in parallel on a thread pool
//!   ([`pool`]); `batch_check` decides every row first and explains only the rejected ones
//!   ([`verdicts`]).
//!
//! The Python package (`rfc3986_strict/__init__.py`, `rfc3986_strict/arrow.py`) wraps the batch half so
//! that pyarrow arrays go in and come out.
//!
//! No Rust panic reaches Python: every function runs inside [`guard`], which turns one into a
//! `RuntimeError` (PyO3 alone would raise `PanicException`, a `BaseException` that `except Exception`
//! misses).
//!
//! The GIL is released only for work long enough to matter ([`DETACH_MIN_BYTES`]): a thread that takes
//! the GIL back after the interpreter has begun to finalize is ended by CPython before 3.14 with
//! `pthread_exit`, which aborts the process when Rust frames are on its stack (CPython gh-87135). Short
//! calls keep the GIL, so never meet it; for long ones the package's `atexit` hook ([`_at_exit`]) stops
//! releasing the GIL and waits for the calls in flight to take it back before finalization begins.
//! What remains: the exit waits for the longest call in flight, and an interpreter that finalizes
//! without running `atexit` hooks (`os._exit` does not finalize at all) is not covered.

mod column;
mod errors;
mod everyday;
mod pool;
mod redact;
mod verdicts;

use std::ffi::CString;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use arrow_array::ffi::to_ffi;
use arrow_array::{Array, ArrayRef, LargeStringArray, StringArray, StructArray};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field, Fields};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyList, PyString, PyTuple, PyType};
use rfc3986::normalize::{Level, Options};
use rfc3986::resolve::Resolver;
use rfc3986::runtime::Grammar;
use rfc3986::template::UriTemplate;
use rfc3986::{HostKind, Rule, Uri, UriRef};

use column::{Reader, Row};
use errors::{parse_error, Source};
use verdicts::Rejection;

pyo3::create_exception!(
    rfc3986_strict,
    TemplateError,
    PyValueError,
    "The input is not a URI Template (RFC 6570 section 2).\n\n\
     Attributes: offset (index in the Python str where the template stops matching the grammar), \
     byte_offset (the same in UTF-8 bytes), input."
);

/// Inputs of at least this many bytes are worked on with the GIL released (see the module docs).
const DETACH_MIN_BYTES: usize = 16 * 1024;

/// Calls that are working with the GIL released, and whether the interpreter is exiting (`_at_exit`
/// has run): both read and written with the GIL held.
static DETACHED: AtomicUsize = AtomicUsize::new(0);
static EXITING: AtomicBool = AtomicBool::new(false);

/// `f()`, with the GIL released when `weight` (about the bytes to work on) is at least
/// [`DETACH_MIN_BYTES`] and the interpreter is not exiting.
pub(crate) fn maybe_detach<T: Send>(
    py: Python<'_>,
    weight: usize,
    f: impl FnOnce() -> T + Send,
) -> T {
    if weight < DETACH_MIN_BYTES || EXITING.load(Ordering::SeqCst) {
        return f();
    }
    /// Counts the call out again, also when `f` panics.
    struct Detached;
    impl Drop for Detached {
        fn drop(&mut self) {
            DETACHED.fetch_sub(1, Ordering::SeqCst);
        }
    }
    DETACHED.fetch_add(1, Ordering::SeqCst);
    let _detached = Detached;
    py.detach(f)
}

/// _at_exit()
/// --
///
/// Registered with `atexit` by the package: from now on every call keeps the GIL, and this waits
/// (without the GIL) until the calls that released it have taken it back, so that no thread is
/// outside the GIL inside this module when the interpreter finalizes (CPython gh-87135).
#[pyfunction]
fn _at_exit(py: Python<'_>) {
    EXITING.store(true, Ordering::SeqCst);
    while DETACHED.load(Ordering::SeqCst) > 0 {
        py.detach(|| std::thread::sleep(std::time::Duration::from_millis(1)));
    }
}

/// `f()`, with a Rust panic turned into a `RuntimeError` with its message: the last line of defence,
/// so that `except Exception` sees every failure.
fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_string());
        Err(PyRuntimeError::new_err(format!(
            "internal error in rfc3986_strict (a Rust panic: {what}); please report it"
        )))
    })
}

/// The IRI grammar of RFC 3987 shipped with the crate, loaded once.
const IRI_PEST: &str = include_str!("../../grammars/iri.pest");

pub(crate) fn iri_grammar() -> PyResult<&'static Grammar> {
    static GRAMMAR: OnceLock<Result<Grammar, String>> = OnceLock::new();
    GRAMMAR
        .get_or_init(|| Grammar::load(IRI_PEST).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| PyValueError::new_err(format!("the IRI grammar does not load: {e}")))
}

/// The index in `text`, counted in Unicode code points (what a Python `str` is indexed by), of the byte
/// offset `byte`.
pub(crate) fn char_offset(text: &str, byte: usize) -> usize {
    let byte = byte.min(text.len());
    let prefix = &text.as_bytes()[..byte];
    if prefix.is_ascii() {
        return byte;
    }
    text.char_indices().take_while(|&(i, _)| i < byte).count()
}

/// The rule of RFC 3986 named `name`, in any case (RFC 5234 2.1): the one lookup of rule names.
pub(crate) fn rule_named(name: &str) -> PyResult<Rule> {
    if name == "URI-reference" {
        return Ok(Rule::URI_REFERENCE);
    }
    Rule::from_abnf_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown rule {name:?}: give an ABNF rule name of RFC 3986 (URI-reference, URI, \
             absolute-URI, relative-ref, authority, host, IPv6address, ...)"
        ))
    })
}

/// [`rule_named`], for the functions that give URI references: one of `URI-reference`, `URI`,
/// `absolute-URI`, `relative-ref`, in any case.
fn reference_rule_named(name: &str) -> PyResult<Rule> {
    let rule = rule_named(name)?;
    if [
        Rule::URI_REFERENCE,
        Rule::URI,
        Rule::ABSOLUTE_URI,
        Rule::RELATIVE_REF,
    ]
    .contains(&rule)
    {
        Ok(rule)
    } else {
        Err(PyValueError::new_err(format!(
            "rule {name:?} is none of URI-reference, URI, absolute-URI, relative-ref (the rules \
             that give URI references)"
        )))
    }
}

fn level_named(name: &str) -> PyResult<Level> {
    match name.to_ascii_lowercase().as_str() {
        "simple" => Ok(Level::Simple),
        "syntax" => Ok(Level::Syntax),
        "scheme" => Ok(Level::Scheme),
        _ => Err(PyValueError::new_err(format!(
            "unknown level {name:?}: \"simple\" (RFC 3986 6.2.1), \"syntax\" (6.2.2) or \"scheme\" (6.2.3)"
        ))),
    }
}

fn options(level: &str, ipv6_rfc5952: bool) -> PyResult<Options> {
    Ok(Options::from(level_named(level)?).ipv6_rfc5952(ipv6_rfc5952))
}

fn host_kind_name(kind: HostKind) -> &'static str {
    kind.abnf_name()
}

// ------------------------------------------------------------------------------------------------
// Scalar API
// ------------------------------------------------------------------------------------------------

/// validate(text, rule="URI-reference")
/// --
///
/// Checks that the whole of `text` is in the language of the ABNF rule `rule` of RFC 3986 (Appendix A:
/// `URI-reference` 4.1, `URI` 3, `absolute-URI` 4.3, `relative-ref` 4.2, `authority` 3.2, `host` 3.2.2,
/// `IPv6address`, ...; any case). Returns None; raises ParseError at the first character the rule
/// cannot accept, ValueError for an unknown rule name, UnicodeEncodeError for a str with lone
/// surrogates.
#[pyfunction]
#[pyo3(signature = (text, rule = "URI-reference"))]
fn validate(py: Python<'_>, text: &str, rule: &str) -> PyResult<()> {
    guard(|| {
        let rule = rule_named(rule)?;
        maybe_detach(py, text.len(), || rfc3986::validate(rule, text))
            .map_err(|e| parse_error(py, e, text, Source::Uri))
    })
}

/// is_valid(text, rule="URI-reference")
/// --
///
/// Whether the whole of `text` is in the language of the ABNF rule `rule` of RFC 3986: validate()
/// as a bool.
#[pyfunction]
#[pyo3(signature = (text, rule = "URI-reference"))]
fn is_valid(py: Python<'_>, text: &str, rule: &str) -> PyResult<bool> {
    guard(|| {
        let rule = rule_named(rule)?;
        Ok(maybe_detach(py, text.len(), || {
            rfc3986::is_valid(rule, text)
        }))
    })
}

/// validate_iri(text, rule="IRI-reference")
/// --
///
/// Checks `text` against a rule of the IRI grammar of RFC 3987 section 2.2 (`IRI-reference`, `IRI`,
/// `absolute-IRI`, `irelative-ref`, ...): RFC 3986 plus the non-ASCII characters of `ucschar`
/// (and `iprivate` in the query). Raises ParseError like validate().
#[pyfunction]
#[pyo3(signature = (text, rule = "IRI-reference"))]
fn validate_iri(py: Python<'_>, text: &str, rule: &str) -> PyResult<()> {
    guard(|| {
        let grammar = iri_grammar()?;
        let entry = grammar
            .entry(rule)
            .map_err(|e| PyValueError::new_err(format!("unknown IRI rule: {e}")))?;
        let result = maybe_detach(py, text.len(), || entry.parse(text).map(|_| ()));
        result.map_err(|e| parse_error(py, e, text, Source::Iri))
    })
}

/// validate_template(text)
/// --
///
/// Checks that `text` is a URI Template, in the grammar of RFC 6570 section 2 (`{var}`, `{?q,lang}`,
/// `{+path:6}`, ...). Returns None; raises TemplateError (a ValueError) with `offset` (index into the
/// str where the template stops matching), `byte_offset` and `input`.
#[pyfunction]
fn validate_template(py: Python<'_>, text: &str) -> PyResult<()> {
    guard(|| {
        let result = maybe_detach(py, text.len(), || UriTemplate::parse(text).map(|_| ()));
        result.map_err(|e| everyday::template_error(py, text, &e))
    })
}

/// A URI reference split into its components (RFC 3986 section 3; 4.1 for references).
///
/// An undefined component is None, an empty one "" (`http://h?` has the query "", `http://h` None;
/// RFC 3986 5.2.2 and 5.3 tell them apart). The path is always defined (3.3), possibly empty.
/// `UriRef(text)` is `parse(text)`; a UriRef pickles and copies as its text.
#[pyclass(frozen, module = "rfc3986_strict", name = "UriRef")]
struct PyUriRef {
    text: String,
    #[pyo3(get)]
    scheme: Option<String>,
    #[pyo3(get)]
    authority: Option<String>,
    #[pyo3(get)]
    userinfo: Option<String>,
    #[pyo3(get)]
    host: Option<String>,
    #[pyo3(get)]
    host_kind: Option<&'static str>,
    #[pyo3(get)]
    port: Option<String>,
    #[pyo3(get)]
    path: String,
    #[pyo3(get)]
    query: Option<String>,
    #[pyo3(get)]
    fragment: Option<String>,
}

impl PyUriRef {
    fn from_ref(r: &UriRef<'_>) -> PyUriRef {
        PyUriRef {
            text: r.as_str().to_string(),
            scheme: r.scheme().map(String::from),
            authority: r.authority().map(|a| a.as_str().to_owned()),
            userinfo: r.userinfo().map(String::from),
            host: r.host_str().map(String::from),
            host_kind: r.host_kind().map(host_kind_name),
            port: r.port().map(String::from),
            path: r.path().to_string(),
            query: r.query().map(String::from),
            fragment: r.fragment().map(String::from),
        }
    }
}

/// A port given to `with_port` or `build`: a number or the digits as text.
#[derive(FromPyObject)]
enum PortArg {
    Number(u16),
    Text(String),
}

impl PyUriRef {
    /// The value again, as the crate's type (its text is a URI reference by construction).
    fn value(&self) -> PyResult<UriRef<'_>> {
        UriRef::parse(&self.text).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// A new value: this one with `edit` applied.
    fn edited(
        &self,
        edit: impl FnOnce(&mut UriRef<'_>) -> Result<(), rfc3986::recompose::BuildError>,
    ) -> PyResult<PyUriRef> {
        let mut r = self.value()?;
        edit(&mut r).map_err(everyday::build_error)?;
        Ok(PyUriRef::from_ref(&r))
    }
}

#[pymethods]
impl PyUriRef {
    /// UriRef(text): parse(text) (a URI-reference, RFC 3986 4.1); raises ParseError.
    #[new]
    fn new(py: Python<'_>, text: &str) -> PyResult<PyUriRef> {
        parse(py, text, "URI-reference")
    }

    /// Whether the reference is a URI, that is has a scheme (RFC 3986 4.1, 3); otherwise it is a
    /// relative reference (4.2).
    #[getter]
    fn is_uri(&self) -> bool {
        self.scheme.is_some()
    }

    /// The port as a number, or None when there is no port, it is empty, or it does not fit 0..65535
    /// (`port = *DIGIT`, RFC 3986 3.2.3, allows any number of digits).
    #[getter]
    fn port_number(&self) -> Option<u16> {
        self.port.as_deref().and_then(|p| p.parse().ok())
    }

    /// The port as a number, the same as `port_number`: a shorthand for code that reads `port` as
    /// urllib's `SplitResult.port` (an int) does; `port` itself is the text as written.
    #[getter]
    fn port_int(&self) -> Option<u16> {
        self.port_number()
    }

    /// A copy with the scheme (RFC 3986 3.1) replaced; None removes it (the result is a relative
    /// reference, 4.2). UriRef is immutable: every `with_*` method returns a new value and leaves this
    /// one as it is. Raises BuildError when the result would not be a URI reference.
    fn with_scheme(&self, scheme: Option<&str>) -> PyResult<PyUriRef> {
        self.edited(|r| r.set_scheme(scheme))
    }

    /// A copy with the userinfo (RFC 3986 3.2.1, as written: percent-encode raw text with
    /// percent_encode(text, "userinfo")) replaced; None removes it. Raises BuildError.
    fn with_userinfo(&self, userinfo: Option<&str>) -> PyResult<PyUriRef> {
        self.edited(|r| r.set_userinfo(userinfo))
    }

    /// A copy with the host (RFC 3986 3.2.2: reg-name, IPv4address, "[IPv6address]") replaced; None
    /// removes the whole authority. Raises BuildError.
    fn with_host(&self, host: Option<&str>) -> PyResult<PyUriRef> {
        self.edited(|r| r.set_host(host))
    }

    /// A copy with the port (RFC 3986 3.2.3) replaced: an int in 0..65535, a str of digits (any
    /// length, as the grammar allows) or None to remove it. Raises BuildError.
    fn with_port(&self, port: Option<PortArg>) -> PyResult<PyUriRef> {
        match port {
            None => self.edited(|r| r.set_port(None)),
            Some(PortArg::Number(n)) => self.edited(|r| r.set_port_u16(Some(n))),
            Some(PortArg::Text(t)) => self.edited(|r| r.set_port(Some(&t))),
        }
    }

    /// A copy with the path (RFC 3986 3.3, as written) replaced. Raises BuildError when it cannot
    /// stand there (after an authority it must be empty or start with "/").
    fn with_path(&self, path: &str) -> PyResult<PyUriRef> {
        self.edited(|r| r.set_path(path))
    }

    /// A copy with one more path segment, `segment` as written (RFC 3986 3.3: `segment = *pchar`, no
    /// "/"; encode raw text with percent_encode(text, "segment")), joined to the path with "/".
    /// Raises BuildError when it is not a segment.
    fn with_segment(&self, segment: &str) -> PyResult<PyUriRef> {
        self.edited(|r| r.push_segment(segment))
    }

    /// A copy with the query (RFC 3986 3.4, as written, without "?") replaced; None removes it, ""
    /// keeps an empty one. Raises BuildError.
    fn with_query(&self, query: Option<&str>) -> PyResult<PyUriRef> {
        self.edited(|r| r.set_query(query))
    }

    /// A copy with the fragment (RFC 3986 3.5, as written, without "#") replaced; None removes it.
    /// Raises BuildError.
    fn with_fragment(&self, fragment: Option<&str>) -> PyResult<PyUriRef> {
        self.edited(|r| r.set_fragment(fragment))
    }

    /// The `key=value` pairs of the query, decoded as forms are ("+" is a space): query_pairs(query);
    /// [] when there is no query.
    fn query_pairs(&self, py: Python<'_>) -> PyResult<Vec<(String, String)>> {
        everyday::query_pairs(py, self.query.as_deref().unwrap_or(""))
    }

    /// A copy with `pairs` (an iterable of (key, value) str pairs) appended to the query, each key
    /// and value percent-encoded with "&", "=", "+" and ";" encoded too, so that query_pairs() gives
    /// them back. Joined with "&"; the fragment is kept.
    fn with_query_pairs(&self, pairs: Vec<(String, String)>) -> PyResult<PyUriRef> {
        let mut out = self.value()?.into_owned();
        out.append_query_pairs(pairs);
        Ok(PyUriRef::from_ref(&out))
    }

    /// The components as a dict, None for undefined ones.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("scheme", &self.scheme)?;
        d.set_item("authority", &self.authority)?;
        d.set_item("userinfo", &self.userinfo)?;
        d.set_item("host", &self.host)?;
        d.set_item("port", &self.port)?;
        d.set_item("path", &self.path)?;
        d.set_item("query", &self.query)?;
        d.set_item("fragment", &self.fragment)?;
        Ok(d)
    }

    /// Pickled as `UriRef(text)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().text.clone(),))
    }

    /// Immutable: a copy is the object itself.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    /// `UriRef('text')`, the text as Python's repr() writes a str.
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("UriRef({})", PyString::new(py, &self.text).repr()?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyUriRef>() {
            Ok(o) => o.get().text == self.text,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.text.hash(&mut h);
        h.finish()
    }
}

/// parse(text, rule="URI-reference")
/// --
///
/// Parses `text` as a URI reference (RFC 3986 4.1) and returns a UriRef with its components: scheme
/// (3.1), authority (3.2), userinfo (3.2.1), host (3.2.2), port (3.2.3), path (3.3), query (3.4),
/// fragment (3.5). `rule` may be `URI-reference`, `URI`, `absolute-URI` or `relative-ref` (any case);
/// ValueError for another. Raises ParseError.
#[pyfunction]
#[pyo3(signature = (text, rule = "URI-reference"))]
fn parse(py: Python<'_>, text: &str, rule: &str) -> PyResult<PyUriRef> {
    guard(|| {
        let rule = reference_rule_named(rule)?;
        let parsed = maybe_detach(py, text.len(), || {
            rfc3986::parse_as(rule, text).map(|m| m.into_uri_ref().map(|r| PyUriRef::from_ref(&r)))
        });
        parsed
            .map_err(|e| parse_error(py, e, text, Source::Uri))?
            .map_err(|_| PyRuntimeError::new_err("a reference rule's match is no URI reference"))
    })
}

/// build(*, scheme=None, userinfo=None, host=None, port=None, path="", query=None, fragment=None)
/// --
///
/// A UriRef put together from components as written in a URI (RFC 3986 5.3): None leaves one
/// undefined, "" makes it empty. A userinfo or port needs a host; `port` is an int or a str of
/// digits. Percent-encode raw text first with percent_encode(). Raises BuildError when the result
/// would not be a URI reference (a component outside its rule, a path that cannot follow or stand
/// without an authority, 3.3, a ":" in the first segment of a relative-path reference, 4.2).
#[pyfunction]
#[pyo3(signature = (*, scheme = None, userinfo = None, host = None, port = None, path = "", query = None, fragment = None))]
#[allow(clippy::too_many_arguments)]
fn build(
    scheme: Option<String>,
    userinfo: Option<String>,
    host: Option<String>,
    port: Option<PortArg>,
    path: &str,
    query: Option<String>,
    fragment: Option<String>,
) -> PyResult<PyUriRef> {
    guard(|| {
        let mut b = rfc3986::UriBuilder::new().path(path.to_string());
        if let Some(s) = scheme {
            b = b.scheme(s);
        }
        if let Some(u) = userinfo {
            b = b.userinfo(u);
        }
        if let Some(h) = host {
            b = b.host(h);
        }
        match port {
            Some(PortArg::Number(n)) => b = b.port_u16(n),
            Some(PortArg::Text(t)) => b = b.port(t),
            None => {}
        }
        if let Some(q) = query {
            b = b.query(q);
        }
        if let Some(f) = fragment {
            b = b.fragment(f);
        }
        let r = b.build().map_err(everyday::build_error)?;
        Ok(PyUriRef::from_ref(&r))
    })
}

/// resolve(base, reference, strict=True)
/// --
///
/// The target URI of `reference` against the base URI `base` (RFC 3986 5.2.2, recomposed as in 5.3).
/// `base` must be a URI (with a scheme, 5.1; its fragment is ignored). With strict=False a scheme equal
/// to the base's is ignored, the backward-compatible rule of 5.2.2 (`http:g` -> `http://a/b/c/g`).
/// Raises ParseError when base is not a URI or reference not a URI-reference.
#[pyfunction]
#[pyo3(signature = (base, reference, strict = true))]
fn resolve(py: Python<'_>, base: &str, reference: &str, strict: bool) -> PyResult<String> {
    guard(|| {
        let b = Uri::parse(base).map_err(|e| parse_error(py, e, base, Source::Uri))?;
        let r = UriRef::parse(reference).map_err(|e| parse_error(py, e, reference, Source::Uri))?;
        Resolver::new()
            .strict(strict)
            .resolve(&b, &r)
            .map(Uri::into_string)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    })
}

/// normalize(text, level="scheme", ipv6_rfc5952=False)
/// --
///
/// The normal form of the URI reference `text` (RFC 3986 6.2): level "simple" (6.2.1) returns it as
/// written, "syntax" (6.2.2: case, percent-encoding of unreserved characters, dot-segments, empty
/// port) and "scheme", the default, as the crate's `normalize()` (6.2.2 then 6.2.3: default ports,
/// empty http(s)/ws(s) path as "/"). ipv6_rfc5952=True also
/// writes IPv6 addresses in the RFC 5952 form. Raises ParseError.
#[pyfunction]
#[pyo3(signature = (text, level = "scheme", ipv6_rfc5952 = false))]
fn normalize(py: Python<'_>, text: &str, level: &str, ipv6_rfc5952: bool) -> PyResult<String> {
    guard(|| {
        let opts = options(level, ipv6_rfc5952)?;
        maybe_detach(py, text.len(), || {
            UriRef::parse(text).map(|r| r.normalize_with_options(opts).into_string())
        })
        .map_err(|e| parse_error(py, e, text, Source::Uri))
    })
}

/// equivalent(a, b, level="scheme", ipv6_rfc5952=False)
/// --
///
/// Whether two URI references are equivalent at a rung of the comparison ladder (RFC 3986 6.2): their
/// normal forms at `level` are the same text. Raises ParseError when either is not a URI-reference.
#[pyfunction]
#[pyo3(signature = (a, b, level = "scheme", ipv6_rfc5952 = false))]
fn equivalent(py: Python<'_>, a: &str, b: &str, level: &str, ipv6_rfc5952: bool) -> PyResult<bool> {
    guard(|| {
        let opts = options(level, ipv6_rfc5952)?;
        let ra = UriRef::parse(a).map_err(|e| parse_error(py, e, a, Source::Uri))?;
        let rb = UriRef::parse(b).map_err(|e| parse_error(py, e, b, Source::Uri))?;
        Ok(maybe_detach(py, a.len() + b.len(), || {
            rfc3986::normalize::equivalent_with(&ra, &rb, opts)
        }))
    })
}

/// A SHOULD-level or security finding on a valid URI reference (RFC 3986 sections 2 to 7).
///
/// `Finding(code, section, message, start, end)`; it pickles and copies.
#[pyclass(frozen, eq, hash, module = "rfc3986_strict", name = "Finding")]
#[derive(PartialEq, Eq, Hash)]
struct PyFinding {
    /// A stable kebab-case code.
    #[pyo3(get)]
    code: String,
    /// The RFC section the finding is about.
    #[pyo3(get)]
    section: String,
    /// What was found and why it matters.
    #[pyo3(get)]
    message: String,
    /// Where, as str indices [start, end) into the input.
    #[pyo3(get)]
    start: usize,
    #[pyo3(get)]
    end: usize,
}

#[pymethods]
impl PyFinding {
    #[new]
    fn new(code: String, section: String, message: String, start: usize, end: usize) -> Self {
        PyFinding {
            code,
            section,
            message,
            start,
            end,
        }
    }

    /// Pickled as `Finding(code, section, message, start, end)`.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (String, String, String, usize, usize)) {
        let f = slf.get();
        (
            slf.get_type(),
            (
                f.code.clone(),
                f.section.clone(),
                f.message.clone(),
                f.start,
                f.end,
            ),
        )
    }

    /// Immutable: a copy is the object itself.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }

    fn __repr__(&self) -> String {
        format!(
            "Finding(code={:?}, section={:?}, start={}, end={}, message={:?})",
            self.code, self.section, self.start, self.end, self.message
        )
    }
}

/// lint(text)
/// --
///
/// SHOULD-level and security findings on the valid URI reference `text` (RFC 3986 sections 2 to 7: an
/// upper-case scheme or reg-name, lower-case percent-encodings, userinfo with a password (3.2.1, 7.5),
/// dot-segments in a URI, ...), a list of Finding. Raises ParseError when `text` is not a URI-reference.
/// Linear in the length of `text`.
#[pyfunction]
fn lint(py: Python<'_>, text: &str) -> PyResult<Vec<PyFinding>> {
    guard(|| {
        // A valid URI reference is ASCII (RFC 3986 2), so the findings' byte offsets are str indices:
        // no rescanning of the text per finding.
        let findings = maybe_detach(py, text.len(), || {
            UriRef::parse(text).map(|r| {
                r.lint()
                    .iter()
                    .map(|f| PyFinding {
                        code: f.code().as_str().to_string(),
                        section: f.section().to_string(),
                        message: f.message().to_string(),
                        start: f.start(),
                        end: f.end(),
                    })
                    .collect::<Vec<_>>()
            })
        });
        findings.map_err(|e| parse_error(py, e, text, Source::Uri))
    })
}

// ------------------------------------------------------------------------------------------------
// Batch API over the Arrow C data interface
// ------------------------------------------------------------------------------------------------

/// The most bytes of text one output chunk of `string` type holds (its offsets are 32-bit); more
/// becomes several chunks. Lowered only by tests (`_set_max_chunk_bytes`).
static MAX_CHUNK_BYTES: AtomicUsize = AtomicUsize::new(i32::MAX as usize);

/// The row ranges of the output chunks: one range when the text outputs are `large_string`, else runs
/// of rows whose text (`size` of each row) adds up to at most [`MAX_CHUNK_BYTES`].
fn chunk_ranges(
    n: usize,
    large: bool,
    size: impl Fn(usize) -> usize,
) -> PyResult<Vec<Range<usize>>> {
    chunk_ranges_of(n, large, (0..n).map(|i| (i, size(i))))
}

/// [`chunk_ranges`] of `n` rows with text at the rows `sizes` gives, ascending, each with its size
/// (the other rows have none).
pub(crate) fn chunk_ranges_of(
    n: usize,
    large: bool,
    sizes: impl Iterator<Item = (usize, usize)>,
) -> PyResult<Vec<Range<usize>>> {
    if large {
        return Ok(std::iter::once(0..n).collect());
    }
    let limit = MAX_CHUNK_BYTES.load(Ordering::Relaxed);
    let mut ranges = Vec::new();
    let (mut start, mut total) = (0, 0usize);
    for (i, s) in sizes {
        if s > limit {
            return Err(PyValueError::new_err(format!(
                "row {i}'s output is {s} bytes, more than a string array holds ({limit}): pass a \
                 large_string array"
            )));
        }
        if total + s > limit {
            ranges.push(start..i);
            (start, total) = (i, 0);
        }
        total += s;
    }
    ranges.push(start..n);
    Ok(ranges)
}

/// A text array, `large_string` when `large`.
fn text_array<'a>(large: bool, values: impl Iterator<Item = Option<&'a str>>) -> ArrayRef {
    if large {
        Arc::new(values.collect::<LargeStringArray>())
    } else {
        Arc::new(values.collect::<StringArray>())
    }
}

fn text_type(large: bool) -> DataType {
    if large {
        DataType::LargeUtf8
    } else {
        DataType::Utf8
    }
}

/// Exports arrays as a list of `(schema, array)` capsule pairs of the Arrow PyCapsule interface: the
/// chunks of one result.
fn export(py: Python<'_>, chunks: Vec<ArrayRef>) -> PyResult<Bound<'_, PyList>> {
    let pairs = chunks
        .into_iter()
        .map(|array| {
            let (ffi_array, ffi_schema) = to_ffi(&array.to_data()).map_err(|e| {
                PyValueError::new_err(format!("cannot export the Arrow array: {e}"))
            })?;
            let schema = PyCapsule::new(py, ffi_schema, Some(CString::from(c"arrow_schema")))?;
            let array = PyCapsule::new(py, ffi_array, Some(CString::from(c"arrow_array")))?;
            PyTuple::new(py, [schema.into_any(), array.into_any()])
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, pairs)
}

fn nulls_of(valid: impl Iterator<Item = bool>) -> Option<NullBuffer> {
    let nulls = NullBuffer::from_iter(valid);
    (nulls.null_count() > 0).then_some(nulls)
}

/// Imports `array` and runs `work` on its rows, with the GIL released when the rows are long enough,
/// on the thread pool when they are many: then the whole of `work` runs on a thread of the pool, so
/// that each of its parallel steps starts without a thread from outside the pool handing it over and
/// waiting for it (one hand-over per call instead of one per step).
fn with_rows<'py, T: Send>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    work: impl FnOnce(&Reader<'_>, Option<&rayon::ThreadPool>, bool) -> PyResult<T> + Send,
) -> PyResult<T> {
    let column = column::import(array)?;
    let reader = column.reader();
    let pool = pool::for_rows(py, reader.len())?;
    let large = column.large;
    maybe_detach(py, reader.weight(), || match pool.as_deref() {
        Some(pool) => pool.install(|| work(&reader, Some(pool), large)),
        None => work(&reader, None, large),
    })
}

/// batch_check(array, rule, explain) -> a list of (schema, array) capsule pairs, the chunks of a
/// struct<valid, offset, kind, message>; with explain=False only `valid` is filled (no explanation of
/// rejections, which is most of their cost).
#[pyfunction]
#[pyo3(signature = (array, rule = "URI-reference", explain = true))]
fn batch_check<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    rule: &str,
    explain: bool,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let rule = rule_named(rule)?;
        let chunks = with_rows(py, array, |rows, pool, _| {
            // The verdicts of the compiled recognizer.
            let accept = |row| matches!(row, Row::Text(text) if rfc3986::is_valid(rule, text));
            if !explain {
                let scan = verdicts::scan(rows, pool, accept, |_, _| Err(()));
                return Ok(vec![verdicts::unexplained(&scan)?]);
            }
            // A rejected row explained in the run that rejects it.
            let scan = verdicts::scan(rows, pool, accept, |row, message| {
                explain_rejected(rule, row, message)
            });
            verdicts::explained(&scan, pool)
        })?;
        export(py, chunks)
    })
}

/// check()'s verdict on a row the compiled recognizer rejected: `Err` with its rejection, its
/// message appended to `message`, from `validate` (whose explainer starts from where the recognizer
/// stopped); `Ok` for a null row, which has no verdict. Deciding every row with `validate` alone would
/// cost a valid row more than it saves a rejected one.
fn explain_rejected(rule: Rule, row: Row<'_>, message: &mut String) -> Result<(), Rejection> {
    match row {
        Row::Null => Ok(()),
        Row::Text(text) => rfc3986::validate(rule, text)
            .map_err(|e| Rejection::write(&e, text.as_bytes(), message)),
        Row::NotUtf8(bytes) => {
            rfc3986::validate_bytes(rule, bytes).map_err(|e| Rejection::write(&e, bytes, message))
        }
    }
}

/// batch_check_iri(array, rule) -> the same chunks as batch_check, against the IRI grammar (RFC 3987).
#[pyfunction]
#[pyo3(signature = (array, rule = "IRI-reference"))]
fn batch_check_iri<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    rule: &str,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let grammar = iri_grammar()?;
        let entry = grammar
            .entry(rule)
            .map_err(|e| PyValueError::new_err(format!("unknown IRI rule: {e}")))?;
        let chunks = with_rows(py, array, |rows, pool, _| {
            // One pass: the runtime grammar explains as it decides.
            let scan = verdicts::scan(
                rows,
                pool,
                |_| false,
                |row, message| match row {
                    Row::Null => Ok(()),
                    Row::Text(text) => entry
                        .parse(text)
                        .map(drop)
                        .map_err(|e| Rejection::write(&e, text.as_bytes(), message)),
                    Row::NotUtf8(bytes) => entry
                        .parse_bytes(bytes)
                        .map(drop)
                        .map_err(|e| Rejection::write(&e, bytes, message)),
                },
            );
            verdicts::explained(&scan, pool)
        })?;
        export(py, chunks)
    })
}

const COMPONENTS: [&str; 8] = [
    "scheme",
    "authority",
    "userinfo",
    "host",
    "port",
    "path",
    "query",
    "fragment",
];

type Components<'a> = Option<[Option<&'a str>; 8]>;

/// The components of `text` as a reference of `rule`, as slices of `text`; `None` if it is not one.
fn components_of(rule: Rule, text: &str) -> Components<'_> {
    let r = rfc3986::parse_as(rule, text).ok()?.into_uri_ref().ok()?;
    // The components borrow `text`, which borrows the imported array.
    let span = |c: Option<&str>| -> Option<&str> {
        c.map(|s| {
            let start = s.as_ptr() as usize - text.as_ptr() as usize;
            &text[start..start + s.len()]
        })
    };
    Some([
        span(r.scheme()),
        span(r.authority().map(|a| a.as_str())),
        span(r.userinfo()),
        span(r.host_str()),
        span(r.port()),
        span(Some(r.path())),
        span(r.query()),
        span(r.fragment()),
    ])
}

fn components_to_struct(rows: &[Components<'_>], large: bool) -> PyResult<ArrayRef> {
    let children: Vec<ArrayRef> = (0..COMPONENTS.len())
        .map(|c| text_array(large, rows.iter().map(|row| row.and_then(|r| r[c]))))
        .collect();
    let fields = Fields::from(
        COMPONENTS
            .iter()
            .map(|name| Field::new(*name, text_type(large), true))
            .collect::<Vec<_>>(),
    );
    let nulls = nulls_of(rows.iter().map(Option::is_some));
    let s = StructArray::try_new(fields, children, nulls)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Arc::new(s))
}

/// batch_parse_components(array, rule) -> the chunks of a struct<scheme, authority, userinfo, host,
/// port, path, query, fragment> (large_string fields for a large_string array); a null row for a null
/// or invalid input.
#[pyfunction]
#[pyo3(signature = (array, rule = "URI-reference"))]
fn batch_parse_components<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    rule: &str,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let rule = reference_rule_named(rule)?;
        let chunks = with_rows(py, array, |rows, pool, large| {
            let parts = rows.map(pool, |row| match row {
                Row::Text(text) => components_of(rule, text),
                Row::Null | Row::NotUtf8(_) => None,
            });
            let size = |i: usize| parts[i].map_or(0, |p| p.iter().flatten().map(|s| s.len()).sum());
            chunk_ranges(parts.len(), large, size)?
                .into_iter()
                .map(|r| components_to_struct(&parts[r], large))
                .collect()
        })?;
        export(py, chunks)
    })
}

/// The chunks of a text result, one row per input row.
fn text_chunks(rows: &[Option<String>], large: bool) -> PyResult<Vec<ArrayRef>> {
    Ok(chunk_ranges(rows.len(), large, |i| {
        rows[i].as_ref().map_or(0, String::len)
    })?
    .into_iter()
    .map(|r| text_array(large, rows[r].iter().map(Option::as_deref)))
    .collect())
}

/// batch_normalize(array, level, ipv6_rfc5952) -> the chunks of a string array (large_string for a
/// large_string array); null for a null or invalid input.
#[pyfunction]
#[pyo3(signature = (array, level = "scheme", ipv6_rfc5952 = false))]
fn batch_normalize<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    level: &str,
    ipv6_rfc5952: bool,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let opts = options(level, ipv6_rfc5952)?;
        let chunks = with_rows(py, array, |rows, pool, large| {
            let out = rows.map(pool, |row| {
                let Row::Text(text) = row else { return None };
                let r = UriRef::parse(text).ok()?;
                Some(r.normalize_with_options(opts.clone()).into_string())
            });
            text_chunks(&out, large)
        })?;
        export(py, chunks)
    })
}

/// batch_resolve(base, reference, strict) -> the chunks of a string array of targets (large_string
/// when an input is large_string). `base` is a str (one base URI for every row) or an array as long as
/// `reference`; null where an input is null or invalid.
#[pyfunction]
#[pyo3(signature = (base, reference, strict = true))]
fn batch_resolve<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    reference: &Bound<'py, PyAny>,
    strict: bool,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let resolver = Resolver::new().strict(strict);
        let target = |b: &Uri<'_>, r: Row<'_>| -> Option<String> {
            let Row::Text(r) = r else { return None };
            let r = UriRef::parse(r).ok()?;
            resolver.resolve(b, &r).ok().map(Uri::into_string)
        };
        let chunks = if base.is_instance_of::<PyString>() {
            let base_text: String = base.extract()?;
            let b =
                Uri::parse(&base_text).map_err(|e| parse_error(py, e, &base_text, Source::Uri))?;
            with_rows(py, reference, |refs, pool, large| {
                text_chunks(&refs.map(pool, |r| target(&b, r)), large)
            })?
        } else {
            let bases = column::import(base)?;
            let refs = column::import(reference)?;
            let (bases_rows, refs_rows) = (bases.reader(), refs.reader());
            if bases_rows.len() != refs_rows.len() {
                return Err(PyValueError::new_err(format!(
                    "base and reference arrays differ in length ({} and {}); give one base URI as a str to use it for every reference",
                    bases_rows.len(),
                    refs_rows.len()
                )));
            }
            let large = bases.large || refs.large;
            let pool = pool::for_rows(py, refs_rows.len())?;
            let weight = bases_rows.weight() + refs_rows.weight();
            maybe_detach(py, weight, || {
                let out = pool::par_map(
                    pool.as_deref(),
                    refs_rows.len(),
                    pool::MIN_ROWS_PER_TASK,
                    |i| {
                        let Row::Text(b) = bases_rows.row(i) else {
                            return None;
                        };
                        let b = Uri::parse(b).ok()?;
                        target(&b, refs_rows.row(i))
                    },
                );
                text_chunks(&out, large)
            })?
        };
        export(py, chunks)
    })
}

/// The number of threads the batch API uses (its own pool; set RAYON_NUM_THREADS before the first
/// batch call to change it). Raises RuntimeError when the pool cannot start.
#[pyfunction]
fn batch_threads(py: Python<'_>) -> PyResult<usize> {
    guard(|| Ok(pool::pool(py)?.current_num_threads()))
}

/// For tests: the most bytes of text an output chunk of `string` type holds (default 2**31 - 1).
#[pyfunction]
fn _set_max_chunk_bytes(limit: usize) {
    MAX_CHUNK_BYTES.store(limit.clamp(1, i32::MAX as usize), Ordering::Relaxed);
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TemplateError", m.py().get_type::<TemplateError>())?;
    m.add_class::<PyUriRef>()?;
    m.add_class::<PyFinding>()?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(validate_iri, m)?)?;
    m.add_function(wrap_pyfunction!(validate_template, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(equivalent, m)?)?;
    m.add_function(wrap_pyfunction!(lint, m)?)?;
    m.add_function(wrap_pyfunction!(batch_check, m)?)?;
    m.add_function(wrap_pyfunction!(batch_check_iri, m)?)?;
    m.add_function(wrap_pyfunction!(batch_parse_components, m)?)?;
    m.add_function(wrap_pyfunction!(batch_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(batch_resolve, m)?)?;
    m.add_function(wrap_pyfunction!(batch_threads, m)?)?;
    m.add_function(wrap_pyfunction!(_set_max_chunk_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(_at_exit, m)?)?;
    m.add_class::<errors::Diagnosis>()?;
    everyday::register(m)?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(errors::_rediagnose, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
