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

Batch API over Apache Arrow (pyarrow arrays in and out, zero-copy): :mod:`rfc3986_strict.arrow`.
jsonschema formats: :mod:`rfc3986_strict.formats`.
"""

from ._native import (
    Finding,
    ParseError,
    UriRef,
    __version__,
    equivalent,
    is_valid,
    lint,
    normalize,
    parse,
    resolve,
    validate,
    validate_iri,
)

__all__ = [
    "Finding",
    "ParseError",
    "UriRef",
    "__version__",
    "equivalent",
    "is_valid",
    "is_valid_iri",
    "lint",
    "normalize",
    "parse",
    "resolve",
    "validate",
    "validate_iri",
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
