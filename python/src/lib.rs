//! `rfc3986_strict._native`: the Python bindings of the `rfc3986` crate (PyO3, abi3).
//!
//! Two halves, both thin layers over the crate's public API:
//!
//! - the scalar API (`validate`, `is_valid`, `parse`, `resolve`, `normalize`, `equivalent`, `lint`,
//!   `validate_iri`), one Python `str` at a time;
//! - the batch API (`batch_*`), over Apache Arrow arrays received and returned through the Arrow C data
//!   interface (PyCapsules, no copy of the input), computed off the GIL and in parallel with rayon.
//!
//! The Python package (`rfc3986_strict/__init__.py`, `rfc3986_strict/arrow.py`) wraps the batch half so
//! that pyarrow arrays go in and come out.

use std::ffi::CString;
use std::sync::{Arc, OnceLock};

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{
    make_array, Array, ArrayRef, BooleanArray, Int64Array, LargeStringArray, StringArray,
    StringViewArray, StructArray,
};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use arrow_schema::{DataType, Field, Fields};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyString, PyTuple};
use rayon::prelude::*;
use rfc3986::normalize::{Level, Options};
use rfc3986::resolve::Resolver;
use rfc3986::runtime::Grammar;
use rfc3986::{HostKind, Rule, Uri, UriRef};

pyo3::create_exception!(
    rfc3986_strict,
    ParseError,
    PyValueError,
    "The input is not in the language of the grammar rule (RFC 3986 Appendix A).\n\n\
     Attributes: offset (index of the first character the rule cannot accept, in the Python str; its \
     length if the input ended too early), byte_offset (the same in UTF-8 bytes), kind (a stable \
     kebab-case name: space, brace, non-ascii, unexpected-end, ...), rule (the ABNF rule name), found \
     (the character at offset or None), expected (ABNF names of what the rule accepts there), hint \
     (what to do, with the RFC section, or None), message (short, without position), input."
);

/// The IRI grammar of RFC 3987 shipped with the crate, loaded once.
const IRI_PEST: &str = include_str!("../../grammars/iri.pest");

fn iri_grammar() -> PyResult<&'static Grammar> {
    static GRAMMAR: OnceLock<Result<Grammar, String>> = OnceLock::new();
    GRAMMAR
        .get_or_init(|| Grammar::load(IRI_PEST).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| PyValueError::new_err(format!("the IRI grammar does not load: {e}")))
}

/// The index in `text`, counted in Unicode code points (what a Python `str` is indexed by), of the byte
/// offset `byte`.
fn char_offset(text: &str, byte: usize) -> usize {
    let byte = byte.min(text.len());
    let prefix = &text.as_bytes()[..byte];
    if prefix.is_ascii() {
        return byte;
    }
    text.char_indices().take_while(|&(i, _)| i < byte).count()
}

fn parse_error(py: Python<'_>, err: &rfc3986::ParseError, text: &str) -> PyErr {
    let offset = char_offset(text, err.offset());
    let e = ParseError::new_err(format!("at offset {offset}: {}", err.detail()));
    let value = e.value(py);
    let expected: Vec<String> = err.expected().iter().map(|x| x.to_string()).collect();
    let set = || -> PyResult<()> {
        value.setattr("offset", offset)?;
        value.setattr("byte_offset", err.offset())?;
        value.setattr("kind", err.kind().name())?;
        value.setattr("rule", err.rule_name())?;
        value.setattr("found", err.found().map(String::from))?;
        value.setattr("expected", expected)?;
        value.setattr("hint", err.hint())?;
        value.setattr("message", err.message())?;
        value.setattr("input", text)?;
        Ok(())
    };
    match set() {
        Ok(()) => e,
        Err(other) => other,
    }
}

fn rule_named(name: &str) -> PyResult<Rule> {
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
/// `IPv6address`, ...). Returns None; raises ParseError at the first character the rule cannot accept,
/// ValueError for an unknown rule name, UnicodeEncodeError for a str with lone surrogates.
#[pyfunction]
#[pyo3(signature = (text, rule = "URI-reference"))]
fn validate(py: Python<'_>, text: &str, rule: &str) -> PyResult<()> {
    let rule = rule_named(rule)?;
    rfc3986::validate(rule, text).map_err(|e| parse_error(py, &e, text))
}

/// is_valid(text, rule="URI-reference")
/// --
///
/// Whether the whole of `text` is in the language of the ABNF rule `rule` of RFC 3986: validate()
/// as a bool.
#[pyfunction]
#[pyo3(signature = (text, rule = "URI-reference"))]
fn is_valid(text: &str, rule: &str) -> PyResult<bool> {
    let rule = rule_named(rule)?;
    Ok(rfc3986::is_valid(rule, text))
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
    let grammar = iri_grammar()?;
    let entry = grammar
        .entry(rule)
        .map_err(|e| PyValueError::new_err(format!("unknown IRI rule: {e}")))?;
    let result = py.detach(|| entry.parse(text).map(|_| ()));
    result.map_err(|e| parse_error(py, &e, text))
}

/// A URI reference split into its components (RFC 3986 section 3; 4.1 for references).
///
/// An undefined component is None, an empty one "" (`http://h?` has the query "", `http://h` None;
/// RFC 3986 5.2.2 and 5.3 tell them apart). The path is always defined (3.3), possibly empty.
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
            authority: r.authority().map(String::from),
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

#[pymethods]
impl PyUriRef {
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

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("UriRef({:?})", self.text)
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
/// fragment (3.5). `rule` may be `URI-reference`, `URI`, `absolute-URI` or `relative-ref`.
/// Raises ParseError.
#[pyfunction]
#[pyo3(signature = (text, rule = "URI-reference"))]
fn parse(py: Python<'_>, text: &str, rule: &str) -> PyResult<PyUriRef> {
    let rule_value = rule_named(rule)?;
    let m = rfc3986::parse_as(rule_value, text).map_err(|e| parse_error(py, &e, text))?;
    let r = m.into_uri_ref().map_err(|_| {
        PyValueError::new_err(format!(
            "parse() gives URI references: rule {rule:?} is none of URI-reference, URI, absolute-URI, relative-ref"
        ))
    })?;
    Ok(PyUriRef::from_ref(&r))
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
    let b = Uri::parse(base).map_err(|e| parse_error(py, &e, base))?;
    let r = UriRef::parse(reference).map_err(|e| parse_error(py, &e, reference))?;
    Resolver::new()
        .strict(strict)
        .resolve(&b, &r)
        .map(Uri::into_string)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// normalize(text, level="syntax", ipv6_rfc5952=False)
/// --
///
/// The normal form of the URI reference `text` (RFC 3986 6.2): level "simple" (6.2.1) returns it as
/// written, "syntax" (6.2.2: case, percent-encoding of unreserved characters, dot-segments, empty
/// port) and "scheme" (6.2.3: default ports, empty http(s)/ws(s) path as "/"). ipv6_rfc5952=True also
/// writes IPv6 addresses in the RFC 5952 form. Raises ParseError.
#[pyfunction]
#[pyo3(signature = (text, level = "syntax", ipv6_rfc5952 = false))]
fn normalize(py: Python<'_>, text: &str, level: &str, ipv6_rfc5952: bool) -> PyResult<String> {
    let opts = options(level, ipv6_rfc5952)?;
    let r = UriRef::parse(text).map_err(|e| parse_error(py, &e, text))?;
    Ok(r.normalize_with_options(opts).into_string())
}

/// equivalent(a, b, level="syntax", ipv6_rfc5952=False)
/// --
///
/// Whether two URI references are equivalent at a rung of the comparison ladder (RFC 3986 6.2): their
/// normal forms at `level` are the same text. Raises ParseError when either is not a URI-reference.
#[pyfunction]
#[pyo3(signature = (a, b, level = "syntax", ipv6_rfc5952 = false))]
fn equivalent(py: Python<'_>, a: &str, b: &str, level: &str, ipv6_rfc5952: bool) -> PyResult<bool> {
    let opts = options(level, ipv6_rfc5952)?;
    let ra = UriRef::parse(a).map_err(|e| parse_error(py, &e, a))?;
    let rb = UriRef::parse(b).map_err(|e| parse_error(py, &e, b))?;
    Ok(rfc3986::normalize::equivalent_with(&ra, &rb, opts))
}

/// A SHOULD-level or security finding on a valid URI reference (RFC 3986 sections 2 to 7).
#[pyclass(frozen, module = "rfc3986_strict", name = "Finding")]
struct PyFinding {
    /// A stable kebab-case code.
    #[pyo3(get)]
    code: &'static str,
    /// The RFC section the finding is about.
    #[pyo3(get)]
    section: &'static str,
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
#[pyfunction]
fn lint(py: Python<'_>, text: &str) -> PyResult<Vec<PyFinding>> {
    let r = UriRef::parse(text).map_err(|e| parse_error(py, &e, text))?;
    Ok(r.lint()
        .iter()
        .map(|f| PyFinding {
            code: f.code().as_str(),
            section: f.section(),
            message: f.message().to_string(),
            start: char_offset(text, f.start()),
            end: char_offset(text, f.end()),
        })
        .collect())
}

// ------------------------------------------------------------------------------------------------
// Batch API over the Arrow C data interface
// ------------------------------------------------------------------------------------------------

/// A column of strings borrowed from an imported Arrow array.
enum StrColumn {
    Utf8(StringArray),
    LargeUtf8(LargeStringArray),
    Utf8View(StringViewArray),
    Null(usize),
}

impl StrColumn {
    fn len(&self) -> usize {
        match self {
            StrColumn::Utf8(a) => a.len(),
            StrColumn::LargeUtf8(a) => a.len(),
            StrColumn::Utf8View(a) => a.len(),
            StrColumn::Null(n) => *n,
        }
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&str> {
        match self {
            StrColumn::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            StrColumn::LargeUtf8(a) => a.is_valid(i).then(|| a.value(i)),
            StrColumn::Utf8View(a) => a.is_valid(i).then(|| a.value(i)),
            StrColumn::Null(_) => None,
        }
    }
}

/// Imports an object with `__arrow_c_array__` (a pyarrow Array) without copying its buffers.
fn import_column(obj: &Bound<'_, PyAny>) -> PyResult<StrColumn> {
    if !obj.hasattr("__arrow_c_array__")? {
        return Err(PyTypeError::new_err(
            "expected an Arrow array (an object with __arrow_c_array__, such as a pyarrow.Array)",
        ));
    }
    let tuple = obj.call_method0("__arrow_c_array__")?;
    let tuple = tuple.cast::<PyTuple>()?;
    if tuple.len() != 2 {
        return Err(PyTypeError::new_err(
            "__arrow_c_array__ must return (schema, array) capsules",
        ));
    }
    let schema_capsule = tuple.get_item(0)?;
    let schema_capsule = schema_capsule.cast::<PyCapsule>()?;
    let array_capsule = tuple.get_item(1)?;
    let array_capsule = array_capsule.cast::<PyCapsule>()?;
    let schema_ptr = schema_capsule.pointer_checked(Some(c"arrow_schema"))?;
    let array_ptr = array_capsule.pointer_checked(Some(c"arrow_array"))?;
    // SAFETY: the capsules are named as the Arrow PyCapsule interface says, so they hold an
    // ArrowSchema and an ArrowArray. The array is moved out of its capsule (its release callback is
    // left null there, so the capsule's destructor does nothing), the schema only borrowed.
    let data = unsafe {
        let array = FFI_ArrowArray::from_raw(array_ptr.as_ptr().cast());
        let schema: &FFI_ArrowSchema = &*schema_ptr.as_ptr().cast::<FFI_ArrowSchema>();
        from_ffi(array, schema)
    }
    .map_err(|e| PyValueError::new_err(format!("cannot import the Arrow array: {e}")))?;
    let array = make_array(data);
    let column = match array.data_type() {
        DataType::Utf8 => StrColumn::Utf8(StringArray::from(array.to_data())),
        DataType::LargeUtf8 => StrColumn::LargeUtf8(LargeStringArray::from(array.to_data())),
        DataType::Utf8View => StrColumn::Utf8View(StringViewArray::from(array.to_data())),
        DataType::Null => StrColumn::Null(array.len()),
        other => {
            return Err(PyTypeError::new_err(format!(
                "expected an Arrow array of strings (utf8, large_utf8 or utf8_view), got {other}"
            )))
        }
    };
    Ok(column)
}

/// Exports an array as the `(schema, array)` capsule pair of the Arrow PyCapsule interface.
fn export(py: Python<'_>, array: ArrayRef) -> PyResult<Bound<'_, PyTuple>> {
    let (ffi_array, ffi_schema) = to_ffi(&array.to_data())
        .map_err(|e| PyValueError::new_err(format!("cannot export the Arrow array: {e}")))?;
    let schema = PyCapsule::new(py, ffi_schema, Some(CString::from(c"arrow_schema")))?;
    let array = PyCapsule::new(py, ffi_array, Some(CString::from(c"arrow_array")))?;
    PyTuple::new(py, [schema.into_any(), array.into_any()])
}

/// Rows per rayon task: below this an array is checked on one thread.
const MIN_ROWS_PER_TASK: usize = 2048;

fn par_map<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    if n <= MIN_ROWS_PER_TASK {
        (0..n).map(f).collect()
    } else {
        (0..n)
            .into_par_iter()
            .with_min_len(MIN_ROWS_PER_TASK)
            .map(f)
            .collect()
    }
}

fn nulls_of(valid: impl Iterator<Item = bool>) -> Option<NullBuffer> {
    let nulls = NullBuffer::from_iter(valid);
    (nulls.null_count() > 0).then_some(nulls)
}

/// check(explain=False)'s struct from one state per row (0 null, 1 valid, 2 invalid).
fn verdict_states_to_struct(states: &[u8]) -> PyResult<ArrayRef> {
    let n = states.len();
    let nulls = nulls_of(states.iter().map(|&s| s != 0));
    let values = BooleanBuffer::collect_bool(n, |i| states[i] == 1);
    let valid = BooleanArray::new(values, nulls.clone());
    let s = StructArray::try_new(
        check_fields(),
        vec![
            Arc::new(valid),
            Arc::new(Int64Array::new_null(n)),
            Arc::new(StringArray::new_null(n)),
            Arc::new(StringArray::new_null(n)),
        ],
        nulls,
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Arc::new(s))
}

/// What check() says about one row.
enum Verdict {
    Null,
    Valid,
    Invalid {
        offset: i64,
        kind: &'static str,
        message: String,
    },
}

fn check_fields() -> Fields {
    Fields::from(vec![
        Field::new("valid", DataType::Boolean, true),
        Field::new("offset", DataType::Int64, true),
        Field::new("kind", DataType::Utf8, true),
        Field::new("message", DataType::Utf8, true),
    ])
}

fn verdicts_to_struct(verdicts: &[Verdict]) -> PyResult<ArrayRef> {
    let valid: BooleanArray = verdicts
        .iter()
        .map(|v| match v {
            Verdict::Null => None,
            Verdict::Valid => Some(true),
            Verdict::Invalid { .. } => Some(false),
        })
        .collect();
    let offset: Int64Array = verdicts
        .iter()
        .map(|v| match v {
            Verdict::Invalid { offset, .. } => Some(*offset),
            _ => None,
        })
        .collect();
    let kind: StringArray = verdicts
        .iter()
        .map(|v| match v {
            Verdict::Invalid { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect();
    let message: StringArray = verdicts
        .iter()
        .map(|v| match v {
            Verdict::Invalid { message, .. } => Some(message.as_str()),
            _ => None,
        })
        .collect();
    let nulls = nulls_of(verdicts.iter().map(|v| !matches!(v, Verdict::Null)));
    let s = StructArray::try_new(
        check_fields(),
        vec![
            Arc::new(valid),
            Arc::new(offset),
            Arc::new(kind),
            Arc::new(message),
        ],
        nulls,
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Arc::new(s))
}

/// batch_check(array, rule, explain) -> (schema, array) capsules of struct<valid, offset, kind, message>;
/// with explain=False only `valid` is filled (no explanation of rejections, which is most of their cost).
#[pyfunction]
#[pyo3(signature = (array, rule = "URI-reference", explain = true))]
fn batch_check<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    rule: &str,
    explain: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let rule = rule_named(rule)?;
    let column = import_column(array)?;
    if !explain {
        let out = py.detach(|| {
            // 0: null, 1: valid, 2: invalid; the other fields are all null.
            let states = par_map(column.len(), |i| match column.get(i) {
                None => 0u8,
                Some(text) => 1 + u8::from(!rfc3986::is_valid(rule, text)),
            });
            verdict_states_to_struct(&states)
        })?;
        return export(py, out);
    }
    let out = py.detach(|| {
        let verdicts = par_map(column.len(), |i| match column.get(i) {
            None => Verdict::Null,
            Some(text) => match rfc3986::validate(rule, text) {
                Ok(()) => Verdict::Valid,
                Err(e) => Verdict::Invalid {
                    offset: char_offset(text, e.offset()) as i64,
                    kind: e.kind().name(),
                    message: e.detail(),
                },
            },
        });
        verdicts_to_struct(&verdicts)
    })?;
    export(py, out)
}

/// batch_check_iri(array, rule) -> the same struct as batch_check, against the IRI grammar (RFC 3987).
#[pyfunction]
#[pyo3(signature = (array, rule = "IRI-reference"))]
fn batch_check_iri<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    rule: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    let grammar = iri_grammar()?;
    let entry = grammar
        .entry(rule)
        .map_err(|e| PyValueError::new_err(format!("unknown IRI rule: {e}")))?;
    let column = import_column(array)?;
    let out = py.detach(|| {
        let verdicts = par_map(column.len(), |i| match column.get(i) {
            None => Verdict::Null,
            Some(text) => match entry.parse(text) {
                Ok(_) => Verdict::Valid,
                Err(e) => Verdict::Invalid {
                    offset: char_offset(text, e.offset()) as i64,
                    kind: e.kind().name(),
                    message: e.detail(),
                },
            },
        });
        verdicts_to_struct(&verdicts)
    })?;
    export(py, out)
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

/// batch_parse_components(array, rule) -> struct<scheme, authority, userinfo, host, port, path, query,
/// fragment>; a null row for a null or invalid input.
#[pyfunction]
#[pyo3(signature = (array, rule = "URI-reference"))]
fn batch_parse_components<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    rule: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    let rule_value = rule_named(rule)?;
    if !matches!(
        rule,
        "URI-reference" | "URI" | "absolute-URI" | "relative-ref"
    ) {
        return Err(PyValueError::new_err(format!(
            "rule {rule:?} is none of URI-reference, URI, absolute-URI, relative-ref"
        )));
    }
    let column = import_column(array)?;
    let out = py.detach(|| -> PyResult<ArrayRef> {
        let rows: Vec<Option<[Option<&str>; 8]>> = par_map(column.len(), |i| {
            let text = column.get(i)?;
            let r = rfc3986::parse_as(rule_value, text)
                .ok()?
                .into_uri_ref()
                .ok()?;
            // The components borrow `text`, which borrows the imported array.
            let text: &str = text;
            let span = |c: Option<&str>| -> Option<&str> {
                c.map(|s| {
                    let start = s.as_ptr() as usize - text.as_ptr() as usize;
                    &text[start..start + s.len()]
                })
            };
            Some([
                span(r.scheme()),
                span(r.authority()),
                span(r.userinfo()),
                span(r.host_str()),
                span(r.port()),
                span(Some(r.path())),
                span(r.query()),
                span(r.fragment()),
            ])
        });
        let children: Vec<ArrayRef> = (0..COMPONENTS.len())
            .map(|c| {
                let a: StringArray = rows.iter().map(|row| row.and_then(|r| r[c])).collect();
                Arc::new(a) as ArrayRef
            })
            .collect();
        let fields = Fields::from(
            COMPONENTS
                .iter()
                .map(|name| Field::new(*name, DataType::Utf8, true))
                .collect::<Vec<_>>(),
        );
        let nulls = nulls_of(rows.iter().map(Option::is_some));
        let s = StructArray::try_new(fields, children, nulls)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Arc::new(s))
    })?;
    export(py, out)
}

/// batch_normalize(array, level, ipv6_rfc5952) -> utf8 array; null for a null or invalid input.
#[pyfunction]
#[pyo3(signature = (array, level = "syntax", ipv6_rfc5952 = false))]
fn batch_normalize<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    level: &str,
    ipv6_rfc5952: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let opts = options(level, ipv6_rfc5952)?;
    let column = import_column(array)?;
    let out = py.detach(|| {
        let rows: Vec<Option<String>> = par_map(column.len(), |i| {
            let r = UriRef::parse(column.get(i)?).ok()?;
            Some(r.normalize_with_options(opts.clone()).into_string())
        });
        Arc::new(rows.into_iter().collect::<StringArray>()) as ArrayRef
    });
    export(py, out)
}

/// batch_resolve(base, reference, strict) -> utf8 array of targets. `base` is a str (one base URI for
/// every row) or an array as long as `reference`; null where an input is null or invalid.
#[pyfunction]
#[pyo3(signature = (base, reference, strict = true))]
fn batch_resolve<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    reference: &Bound<'py, PyAny>,
    strict: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let resolver = Resolver::new().strict(strict);
    let refs = import_column(reference)?;
    let target = |b: &Uri<'_>, r: &str| -> Option<String> {
        let r = UriRef::parse(r).ok()?;
        resolver.resolve(b, &r).ok().map(Uri::into_string)
    };
    let out = if base.is_instance_of::<PyString>() {
        let base_text: String = base.extract()?;
        let b = Uri::parse(&base_text).map_err(|e| parse_error(py, &e, &base_text))?;
        py.detach(|| {
            let rows: Vec<Option<String>> = par_map(refs.len(), |i| target(&b, refs.get(i)?));
            Arc::new(rows.into_iter().collect::<StringArray>()) as ArrayRef
        })
    } else {
        let bases = import_column(base)?;
        if bases.len() != refs.len() {
            return Err(PyValueError::new_err(format!(
                "base and reference arrays differ in length ({} and {}); give one base URI as a str to use it for every reference",
                bases.len(),
                refs.len()
            )));
        }
        py.detach(|| {
            let rows: Vec<Option<String>> = par_map(refs.len(), |i| {
                let b = Uri::parse(bases.get(i)?).ok()?;
                target(&b, refs.get(i)?)
            });
            Arc::new(rows.into_iter().collect::<StringArray>()) as ArrayRef
        })
    };
    export(py, out)
}

/// The number of threads the batch API uses (rayon's global pool; set RAYON_NUM_THREADS before the
/// first batch call to change it).
#[pyfunction]
fn batch_threads() -> usize {
    rayon::current_num_threads()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ParseError", m.py().get_type::<ParseError>())?;
    m.add_class::<PyUriRef>()?;
    m.add_class::<PyFinding>()?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(validate_iri, m)?)?;
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
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
