"""URIs exactly as RFC 3986 defines them: validate, parse, resolve, normalize, compare, lint.

A binding of the Rust crate ``rfc3986`` (grammar: RFC 3986 Appendix A, rule for rule).

Scalar API (one ``str`` at a time), here:

- :func:`validate` / :func:`is_valid`: is the whole text in the language of an ABNF rule
  (``URI-reference`` by default, RFC 3986 4.1)? :func:`validate` raises :class:`ParseError`.
- :func:`parse`: the components of a URI reference (RFC 3986 3), ``None`` for an undefined
  component and ``""`` for an empty one.
- :func:`resolve`: the target URI of a reference against a base URI (RFC 3986 5.2).
- :func:`normalize` / :func:`equivalent`: the comparison ladder (RFC 3986 6.2).
- :func:`lint`: SHOULD-level and security findings (RFC 3986 2 to 7).
- :func:`validate_iri` / :func:`is_valid_iri`: the IRI grammar of RFC 3987 2.2.
- :func:`validate_template`: the URI Template grammar of RFC 6570 section 2.
- :func:`percent_encode` / :func:`percent_decode` / :func:`percent_decode_bytes`: percent-encoding
  for one component (RFC 3986 2.1, 2.4, 2.5).
- :func:`query_pairs`: the ``key=value`` pairs of a query, decoded as forms are (``+`` is a space).
- :func:`expand_template`: URI Template expansion (RFC 6570 section 3, levels 1 to 4).
- :func:`make_relative`: a reference that resolves to a target (the inverse of RFC 3986 5.2).
- :func:`iri_to_uri` / :func:`uri_to_iri`: RFC 3987 3.1 and 3.2.
- :func:`fix`: a near-URI made a URI reference by percent-encoding (:class:`Fixed`, :class:`Repair`;
  :class:`UnrepairableError` when encoding cannot help).
- :func:`build` and ``UriRef.with_scheme(...)``, ``with_host``, ``with_port``, ... : values are
  immutable, so an edit returns a new :class:`UriRef` (:class:`BuildError` when the result would not be
  a URI reference).
- :class:`UriRef`, :class:`Finding` and :class:`ParseError` pickle and copy (multiprocessing, Dask).

Messages (``str(ParseError)``, its ``message`` and ``hint``, the batch ``message`` column) never name a
character of a userinfo password (RFC 3986 3.2.1, 7.5); ``ParseError.input`` and ``found`` are the
data as given.

Threads: calls on inputs of 16 KiB or more, and batch calls on as much, release the GIL; shorter ones
keep it. At interpreter exit the package stops releasing it and waits for the calls in flight, because
CPython before 3.14 aborts the process when a daemon thread takes the GIL back during finalization
inside a C extension (gh-87135).

Batch API over Apache Arrow (pyarrow arrays in and out, zero-copy): :mod:`rfc3986_strict.arrow`.
jsonschema formats: :mod:`rfc3986_strict.formats`.
"""

import atexit as _atexit

from ._errors import ParseError
from ._native import (
    BuildError,
    Finding,
    Fixed,
    Repair,
    TemplateError,
    UnrepairableError,
    UriRef,
    __version__,
    build,
    equivalent,
    expand_template,
    fix,
    iri_to_uri,
    is_valid,
    lint,
    make_relative,
    normalize,
    parse,
    percent_decode,
    percent_decode_bytes,
    percent_encode,
    query_pairs,
    resolve,
    uri_to_iri,
    validate,
    validate_iri,
    validate_template,
)
from ._native import _at_exit

# Before the interpreter finalizes, no thread may be working in Rust with the GIL released (CPython
# gh-87135: it would abort the process when it takes the GIL back): see _native._at_exit.
_atexit.register(_at_exit)

__all__ = [
    "BuildError",
    "Finding",
    "Fixed",
    "ParseError",
    "Repair",
    "TemplateError",
    "UnrepairableError",
    "UriRef",
    "__version__",
    "build",
    "equivalent",
    "expand_template",
    "fix",
    "iri_to_uri",
    "is_valid",
    "is_valid_iri",
    "lint",
    "make_relative",
    "normalize",
    "parse",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "query_pairs",
    "resolve",
    "uri_to_iri",
    "validate",
    "validate_iri",
    "validate_template",
]


def is_valid_iri(text: str, rule: str = "IRI-reference") -> bool:
    """Whether ``text`` is in the language of the RFC 3987 (section 2.2) rule ``rule``.

    :func:`validate_iri` as a bool. An IRI is an RFC 3986 URI that may also hold the non-ASCII
    characters of ``ucschar`` (and ``iprivate`` in the query).
    """
    try:
        validate_iri(text, rule)
    except ParseError:
        return False
    return True
