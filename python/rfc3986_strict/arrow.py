"""The batch API: Apache Arrow arrays of URI references in, Arrow arrays out.

Every function takes a ``pyarrow.Array`` of strings (``string``, ``large_string`` or ``string_view``;
an all-null array of type ``null`` too), a ``pyarrow.ChunkedArray`` (processed chunk by chunk), or
anything ``pyarrow.array`` accepts (a list, a pandas Series). Arrays cross into Rust through the Arrow
C data interface without copying the strings; the work runs without the GIL, in parallel over the rows
(rayon; ``RAYON_NUM_THREADS`` sets the number of threads). A null input row gives a null output row.

Offsets are indices into the Python ``str`` (code points), as in :class:`rfc3986_strict.ParseError`.
"""

from __future__ import annotations

from typing import Any, Callable, Union

import pyarrow as pa

from . import _native

__all__ = [
    "CHECK_TYPE",
    "COMPONENTS_TYPE",
    "check",
    "check_iri",
    "normalize",
    "parse_components",
    "resolve",
]

#: The type of :func:`check`'s result.
CHECK_TYPE = pa.struct(
    [
        pa.field("valid", pa.bool_()),
        pa.field("offset", pa.int64()),
        pa.field("kind", pa.string()),
        pa.field("message", pa.string()),
    ]
)

#: The type of :func:`parse_components`'s result (RFC 3986 section 3).
COMPONENTS_TYPE = pa.struct(
    [
        pa.field(name, pa.string())
        for name in ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
    ]
)

ArrayLike = Union[pa.Array, pa.ChunkedArray, Any]


class _Exported:
    """Holds the (schema, array) capsules returned by Rust, for ``pyarrow.array``."""

    __slots__ = ("_capsules",)

    def __init__(self, capsules: tuple) -> None:
        self._capsules = capsules

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple:
        return self._capsules


def _as_arrow(values: ArrayLike) -> pa.Array | pa.ChunkedArray:
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    if hasattr(values, "__arrow_c_array__"):
        return pa.array(values)
    if hasattr(values, "__arrow_c_stream__"):
        return pa.chunked_array(values)
    return pa.array(values, type=pa.string())


def _apply(values: ArrayLike, fn: Callable[[pa.Array], tuple], out_type: pa.DataType):
    arrow = _as_arrow(values)
    if isinstance(arrow, pa.ChunkedArray):
        chunks = [pa.array(_Exported(fn(chunk))) for chunk in arrow.chunks]
        return pa.chunked_array(chunks, type=out_type)
    return pa.array(_Exported(fn(arrow)))


def check(values: ArrayLike, rule: str = "URI-reference", explain: bool = True) -> pa.Array:
    """Validates every row against the RFC 3986 ABNF rule ``rule`` (``URI-reference``, RFC 3986 4.1).

    Returns a struct array ``{valid: bool, offset: int64, kind: string, message: string}``: for an
    invalid row the index of the first character the rule cannot accept, the error's kind (``space``,
    ``brace``, ``non-ascii``, ...) and a one-line message with the hint and what was expected there
    (what :class:`rfc3986_strict.ParseError` says); for a valid row only ``valid`` is set; a null row
    is null.

    ``explain=False`` fills only ``valid``: an explained rejection costs the crate's reference parser a
    second pass (some microseconds), a verdict alone costs the compiled recognizer's pass.
    """
    return _apply(values, lambda a: _native.batch_check(a, rule, explain), CHECK_TYPE)


def check_iri(values: ArrayLike, rule: str = "IRI-reference") -> pa.Array:
    """As :func:`check`, against the IRI grammar of RFC 3987 section 2.2."""
    return _apply(values, lambda a: _native.batch_check_iri(a, rule), CHECK_TYPE)


def parse_components(values: ArrayLike, rule: str = "URI-reference") -> pa.Array:
    """The components of every row (RFC 3986 section 3), a struct array of strings ``scheme``,
    ``authority``, ``userinfo``, ``host``, ``port``, ``path``, ``query``, ``fragment``.

    An undefined component is null and an empty one ``""``, as in :func:`rfc3986_strict.parse`; a row
    that is null or not in the rule's language is a null struct (see :func:`check` for why).
    """
    return _apply(values, lambda a: _native.batch_parse_components(a, rule), COMPONENTS_TYPE)


def normalize(values: ArrayLike, level: str = "syntax", ipv6_rfc5952: bool = False) -> pa.Array:
    """The normal form of every row (RFC 3986 6.2.2 ``syntax``, 6.2.3 ``scheme``, 6.2.1 ``simple``),
    a string array; null for a null or invalid row."""
    return _apply(
        values, lambda a: _native.batch_normalize(a, level, ipv6_rfc5952), pa.string()
    )


def resolve(base: str | ArrayLike, reference: ArrayLike, strict: bool = True) -> pa.Array:
    """The target URI of every reference against its base URI (RFC 3986 5.2.2, recomposed as in 5.3).

    ``base`` is one base URI as a ``str`` (used for every row; :class:`rfc3986_strict.ParseError` if
    it is not a URI) or an array as long as ``reference`` (``ValueError`` otherwise). A row is null
    when its base or reference is null, its base is not a URI (5.1: a base has a scheme) or its
    reference is not a URI-reference. ``strict=False``: see :func:`rfc3986_strict.resolve`.
    """
    refs = _as_arrow(reference)
    if isinstance(base, str):
        return _apply(refs, lambda a: _native.batch_resolve(base, a, strict), pa.string())
    bases = _as_arrow(base)
    if len(bases) != len(refs):
        raise ValueError(
            f"base and reference arrays differ in length ({len(bases)} and {len(refs)}); "
            "give one base URI as a str to use it for every reference"
        )
    if isinstance(bases, pa.ChunkedArray):
        bases = bases.combine_chunks()
    if isinstance(refs, pa.ChunkedArray):
        refs = refs.combine_chunks()
    return pa.array(_Exported(_native.batch_resolve(bases, refs, strict)))
